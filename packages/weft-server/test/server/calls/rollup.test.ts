// @weft-test: postgres
// The server's rollup of one trace (src/server/calls/write/rollup.ts), pure: which edges add up, what is written, cycles.
import { describe, expect, it } from 'vitest';
import { rollUpTrace, type RollupRow } from '../../../src/server/calls/write/rollup.js';

const row = (id: string, parent: string | null, otel: boolean, summary: unknown, sent: unknown = null, uncounted = false): RollupRow => ({
  id, parent_id: parent, otel, uncounted, summary: summary === null ? null : JSON.stringify(summary), sent_summary: sent === null ? null : JSON.stringify(sent),
});
const ok = { status_counts: { success: 1, error: 0 } };
const failed = { status_counts: { success: 0, error: 1 }, usage: { m: { prompt_tokens: 5 } } };

describe('rollUpTrace', () => {
  it('adds span calls into their parents and passes op children under a span through it, never an op into an op', () => {
    // op root (counts its op child itself) -> span -> op leaf that failed; and op root -> op child
    const writes = rollUpTrace([
      row('root', null, false, { status_counts: { success: 2, error: 0 } }),
      row('opchild', 'root', false, ok),
      row('span', 'root', true, ok),
      row('leaf', 'span', false, failed),
    ]);
    expect(Object.fromEntries(writes.map((w) => [w.id, JSON.parse(w.summary) as unknown]))).toEqual({
      root: { status_counts: { success: 3, error: 1 }, usage: { m: { prompt_tokens: 5 } } },
      span: { status_counts: { success: 1, error: 1 }, usage: { m: { prompt_tokens: 5 } } },
    });
    expect(writes.find((w) => w.id === 'span')!.sent_summary).toBe(JSON.stringify(ok));
  });

  it('leaves out the usage of a span that sums the requests below it (an AI SDK operation over its doGenerate spans), keeps a span\'s own when none is below', () => {
    const step = { status_counts: { success: 1, error: 0 }, usage: { 'm-2024': { prompt_tokens: 14 } } };
    const operation = { status_counts: { success: 1, error: 0 }, usage: { m: { prompt_tokens: 28 } } };
    const writes = rollUpTrace([
      row('root', null, false, ok),
      row('op', 'root', true, operation),
      row('s1', 'op', true, step),
      row('s2', 'op', true, step),
      row('lone', 'root', true, operation),
    ]);
    expect(Object.fromEntries(writes.map((w) => [w.id, JSON.parse(w.summary) as unknown]))).toEqual({
      root: { status_counts: { success: 5, error: 0 }, usage: { 'm-2024': { prompt_tokens: 28 }, m: { prompt_tokens: 28 } } },
      op: { status_counts: { success: 3, error: 0 }, usage: { 'm-2024': { prompt_tokens: 28 } } },
    });
  });

  it('rolls up from the sent summaries again (the same answer twice), and restores a summary nothing adds to', () => {
    const rows = [row('a', null, true, ok), row('b', 'a', true, failed)];
    const [first] = rollUpTrace(rows);
    expect(rollUpTrace([row('a', null, true, JSON.parse(first!.summary), ok), rows[1]!])).toEqual([]);
    expect(rollUpTrace([row('a', null, true, JSON.parse(first!.summary), ok)])).toEqual([{ id: 'a', summary: JSON.stringify(ok), sent_summary: null }]);
  });

  it('passes a running span\'s children up without writing it, and ends on a cycle of parent ids', () => {
    const writes = rollUpTrace([row('a', null, true, ok), row('run', 'a', true, null), row('c', 'run', true, failed)]);
    expect(writes.map((w) => w.id)).toEqual(['a']);
    expect(JSON.parse(writes[0]!.summary)).toMatchObject({ status_counts: { success: 1, error: 1 } });
    // x <-> y: the walk from x cuts the edge back into x, so y is added into x once and nothing into y
    expect(rollUpTrace([row('x', 'y', true, ok), row('y', 'x', true, ok)]).map((w) => [w.id, JSON.parse(w.summary) as unknown]))
      .toEqual([['x', { status_counts: { success: 2, error: 0 } }]]);
  });

  it('passes what was rolled into an op child up through the op edges its sender counted, never the counted summary again', () => {
    // root op (counts its op child) -> op child (counts nothing of the span) -> span that failed with tokens
    const writes = rollUpTrace([
      row('root', null, false, { status_counts: { success: 2, error: 0 } }),
      row('mid', 'root', false, ok),
      row('span', 'mid', true, failed),
    ]);
    expect(Object.fromEntries(writes.map((w) => [w.id, JSON.parse(w.summary) as unknown]))).toEqual({
      root: { status_counts: { success: 2, error: 1 }, usage: { m: { prompt_tokens: 5 } } },
      mid: { status_counts: { success: 1, error: 1 }, usage: { m: { prompt_tokens: 5 } } },
    });
  });

  it('adds a call another process sent (uncounted) with what its own process counted into it, to every ancestor', () => {
    // process A: root -> client (counted); process B: handler (uncounted, joined by traceparent) -> model (counted by B)
    const usage = { 'gpt-4o': { prompt_tokens: 13, completion_tokens: 12, requests: 1 } };
    const writes = rollUpTrace([
      row('root', null, false, { status_counts: { success: 2, error: 0 } }),
      row('client', 'root', false, ok),
      row('handler', 'client', false, { status_counts: { success: 2, error: 0 }, usage }, null, true),
      row('model', 'handler', false, { status_counts: { success: 1, error: 0 }, usage }),
    ]);
    expect(Object.fromEntries(writes.map((w) => [w.id, JSON.parse(w.summary) as unknown]))).toEqual({
      root: { status_counts: { success: 4, error: 0 }, usage },
      client: { status_counts: { success: 3, error: 0 }, usage },
    });
  });
});
