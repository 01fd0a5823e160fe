// @weft-test: postgres
// A trace whose calls two processes sent, over loopback HTTP on both stores: the root's summary counts them all, whichever arrives first, once.
import { describe, expect, it } from 'vitest';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { batch, type Json, post } from 'weft-test-kit/server-http.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { CLIENT_SPAN, counts, MODEL_USAGE, TRACE_HEX, twoProcessItems } from 'weft-test-kit/two-process-trace.js';

const server = useTestServer();

const usage = MODEL_USAGE;
const items = twoProcessItems;

async function summaries(project: string): Promise<Record<string, Json>> {
  const calls = await readCalls(server().url, project, { include_costs: true });
  return Object.fromEntries(calls.map((c) => [c.op_name, c.summary as Json]));
}

describe('a trace two processes sent', () => {
  it.each<[string, (i: ReturnType<typeof items>) => Json[][]]>([
    ['the child process\'s ends before the root\'s', (i) => [i.aStarts, i.b, i.aEnds]],
    ['the child process\'s ends after the root\'s', (i) => [[...i.aStarts, ...i.aEnds], i.b]],
    ['the child process first, its start unseen by the root\'s batch', (i) => [i.b, [...i.aStarts, ...i.aEnds]]],
    ['every batch sent twice (the exporter retries)', (i) => [i.aStarts, i.b, i.b, i.aEnds, i.aEnds, i.b]],
  ])('the root and the client call count the other process\'s calls and tokens, %s', async (_, order) => {
    const project = uniqueProject('xproc');
    for (const items_ of order(items(project))) await batch(server(), items_);
    const by = await summaries(project);
    expect(by['agent']).toMatchObject({ ...counts(4), usage, status: 'success' });
    expect(by['mcp.callTool']).toMatchObject({ ...counts(3), usage });
    expect(by['mcp.server.callTool']).toMatchObject({ ...counts(2), usage });
    const cost = (op: string) => (by[op]?.['costs'] as Record<string, { total_cost: number }> | undefined)?.['gpt-4o-mini-2024-07-18']?.total_cost;
    expect(cost('agent')).toBeGreaterThan(0);
    expect(cost('agent')).toBe(cost('openai.chat.completions.create'));
  });

  it('a re-sent root end (summary as sent) is rolled up again, and a child end arriving alone reaches the stored root', async () => {
    const project = uniqueProject('xproc-resend');
    const i = items(project);
    await batch(server(), [...i.aStarts, ...i.aEnds, ...i.b.slice(0, 3)]);
    expect((await summaries(project))['agent']).toEqual(expect.objectContaining(counts(2)));
    await batch(server(), i.b.slice(3)); // the handler's end alone: its start is stored, its trace found from it
    expect((await summaries(project))['agent']).toMatchObject({ ...counts(4), usage });
    await batch(server(), i.aEnds);
    expect((await summaries(project))['agent']).toMatchObject({ ...counts(4), usage });
  });

  it('an OTel span of another process under a nested op (joined by traceparent) adds its tokens and failure to the root', async () => {
    const project = uniqueProject('xproc-otel');
    const i = items(project);
    await batch(server(), [...i.aStarts, ...i.aEnds]);
    const span = {
      traceId: TRACE_HEX, spanId: '00000000000000d1', parentSpanId: CLIENT_SPAN, name: 'chat gpt-4o-mini', kind: 3,
      startTimeUnixNano: '1714557600100000000', endTimeUnixNano: '1714557600200000000', status: { code: 2, message: 'rate limited' },
      attributes: [
        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: 7 } },
        { key: 'gen_ai.usage.output_tokens', value: { intValue: 2 } },
      ],
    };
    const body = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'other-process' }, spans: [span] }] }] };
    const res = await post(server(), '/otel/v1/traces', body, { project_id: project });
    expect(res.status).toBe(200);
    const spanUsage = { 'gpt-4o-mini': { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } };
    const by = await summaries(project);
    expect(by['mcp.callTool']).toMatchObject({ ...counts(1, 1), usage: spanUsage, status: 'descendant_error' });
    expect(by['agent']).toMatchObject({ ...counts(2, 1), usage: spanUsage, status: 'descendant_error' });
  });
});
