// Unit tests of the trace tree printer (weft calls show, the demo), on hand-made call records.
import { describe, expect, it } from 'vitest';
import { buildTrees, callStatus, durationMs, formatDuration, renderTrees, shortOpName } from '../../src/cli/trace-tree.js';
import type { CallRecord } from 'weft-trace';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();

function call(id: string, fields: Partial<CallRecord> & { op_name: string; start: number; end?: number }): CallRecord {
  const { start, end, ...rest } = fields;
  return {
    id,
    project_id: 'local/test',
    trace_id: 'trace-1',
    parent_id: null,
    started_at: at(start),
    ended_at: end === undefined ? null : at(end),
    inputs: {},
    exception: null,
    summary: {},
    ...rest,
  };
}

// answerQuestion ─┬─ retrieve (fails) ── rankChunks
//                 └─ extractSentences
// listed out of order on purpose.
const fixtures: CallRecord[] = [
  call('c4', { op_name: 'extractSentences', parent_id: 'c1', start: 20, end: 24, summary: { status: 'success', latency_ms: 4 } }),
  call('c3', { op_name: 'rankChunks', parent_id: 'c2', start: 3, end: 5, summary: { status: 'success', latency_ms: 2 } }),
  call('c2', {
    op_name: 'retrieve', parent_id: 'c1', start: 2, end: 6,
    exception: { type: 'NoMatchError', message: 'no chunk matches\nsecond line', stack: 'NoMatchError: ...' },
    summary: { status: 'error', latency_ms: 4 },
  }),
  call('c1', {
    op_name: 'answerQuestion', start: 0, end: 30, inputs: { question: 'Why?' },
    summary: { status: 'descendant_error', latency_ms: 30 },
  }),
];

describe('buildTrees', () => {
  it('nests children under parents and orders them by started_at, then id', () => {
    const [root, ...others] = buildTrees(fixtures);
    expect(others).toHaveLength(0);
    expect(root?.call.id).toBe('c1');
    expect(root?.children.map((child) => child.call.id)).toEqual(['c2', 'c4']);
    expect(root?.children[0]?.children.map((child) => child.call.id)).toEqual(['c3']);

    const tied = [call('b', { op_name: 'second', start: 1, end: 2 }), call('a', { op_name: 'first', start: 1, end: 2 })];
    expect(buildTrees(tied).map((tree) => tree.call.id)).toEqual(['a', 'b']);
  });

  it('treats a call whose parent is missing as a root', () => {
    const orphan = call('x', { op_name: 'orphan', parent_id: 'gone', start: 0, end: 1 });
    expect(buildTrees([orphan]).map((tree) => tree.call.id)).toEqual(['x']);
  });
});

describe('renderTrees', () => {
  const lines = renderTrees(fixtures).split('\n');

  it('prints a heading, then one line per call indented two spaces per depth', () => {
    expect(lines[0]).toBe('Trace 1/1 · answerQuestion(question="Why?")');
    expect(lines.slice(1).map((line) => line.match(/^ */)?.[0].length)).toEqual([0, 2, 4, 2]);
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/)[1])).toEqual([
      'answerQuestion', 'retrieve', 'rankChunks', 'extractSentences',
    ]);
  });

  it('marks errors with ✗ and the exception, successes with ✓, and aligns durations', () => {
    expect(lines[2]).toMatch(/^ {2}✗ retrieve +4 ms {2}error: NoMatchError: no chunk matches$/);
    expect(lines[3]).toMatch(/^ {4}✓ rankChunks +2 ms$/);
    expect(lines[1]).toMatch(/^✓ answerQuestion +30 ms {2}\(a descendant failed\)$/);
    const columns = lines.slice(1).map((line) => line.indexOf(' ms'));
    expect(new Set(columns).size).toBe(1);
  });

  it('separates trees with a blank line and aligns durations across trees', () => {
    const two = [...fixtures, call('r2', { op_name: 'other', trace_id: 'trace-2', start: 50, end: 51 })];
    const text = renderTrees(two);
    expect(text).toContain('\n\nTrace 2/2 · other()\n✓ other ');
    const columns = text.split('\n').filter((line) => line.includes(' ms')).map((line) => line.indexOf(' ms'));
    expect(new Set(columns).size).toBe(1);
  });

  it('formats durations with the precision they have', () => {
    expect([12.34, 12, 0, null].map(formatDuration)).toEqual(['12.3 ms', '12 ms', '<1 ms', '—']);
  });
});

describe('status and duration fallbacks', () => {
  it('derives status and duration from the record when the summary lacks them', () => {
    const failed = call('e', { op_name: 'boom', start: 0, end: 7, exception: 'Error: boom', summary: null });
    const running = call('r', { op_name: 'slow', start: 0 });
    expect(callStatus(failed)).toBe('error');
    expect(durationMs(failed)).toBe(7);
    expect(callStatus(running)).toBe('running');
    expect(durationMs(running)).toBeNull();
    expect(renderTrees([running])).toMatch(/… slow +— {2}running$/);
    expect(renderTrees([failed])).toMatch(/✗ boom +7 ms {2}error: Error: boom$/);
  });

  it('shortens weave-style op refs to the op name', () => {
    expect(shortOpName('weave:///local/quickstart/op/retrieve:abc123')).toBe('retrieve');
    expect(shortOpName('retrieve')).toBe('retrieve');
  });
});
