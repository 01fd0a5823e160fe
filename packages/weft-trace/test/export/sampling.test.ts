// @weft-test: isolated (the process-wide sampling counters)
// init({ sampling }): 1,000 traces across two processes joined by traceparent (an MCP client here, a wrapped MCP
// server in a child), rate 0.1 and 5% failing: every failing trace is sent whole, about 10% of the rest, each trace
// whole or not at all in both processes, and the left-out ones counted.
import { describe, expect, it } from 'vitest';
import { flush, getExportStats, init, op } from '../../src/index.js';
import { keptByRate } from '../../src/internal/trace-ratio.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { mcpChild } from 'weft-test-kit/mcp-child.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const TRACES = 1000;
const failing = (i: number): boolean => i % 20 === 0;

describe('sampling across two processes', () => {
  it('keeps every failing trace whole and about 10% of the rest, decided alike by both processes', { timeout: 120_000 }, async () => {
    const project = uniqueProject('sampling');
    init({ project, baseUrl: server().url, flushIntervalMs: 50, printViewerLink: false, sampling: { rate: 0.1 } });
    const before = getExportStats().sampling;
    const child = await mcpChild(server().url, project, {}, 'test/fixtures/mcp-sampled-server.ts');
    await child.connect();
    const request = op(async function request(i: number, fail: boolean) {
      const result = await child.client.callTool({ name: 'work', arguments: { i, fail } });
      if (result.isError) throw new Error(`request ${i} failed`);
      return result.content;
    });
    for (let i = 0; i < TRACES; i++) await request(i, failing(i)).catch(() => undefined);
    await child.close();
    await flush();
    const after = getExportStats().sampling;
    const calls = await readCalls(server().url, project);
    const byTrace = new Map<string, CallRecord[]>();
    for (const c of calls) byTrace.set(c.trace_id, [...(byTrace.get(c.trace_id) ?? []), c]);
    const roots = calls.filter((c) => c.op_name === 'request');
    const rootOf = new Map(roots.map((c) => [(c.inputs as { i: number }).i, c]));

    // whole: each trace sent has its four calls, two from each process
    for (const [trace, its] of byTrace) expect(its.map((c) => c.op_name).sort(), trace).toEqual(['mcp.callTool', 'mcp.server.callTool', 'request', 'step']);
    // every failing trace is there
    const failures = [...Array(TRACES).keys()].filter(failing);
    for (const i of failures) expect(rootOf.get(i)?.exception, `failing trace ${i}`).toBeTruthy();
    // the rest: those the rate keeps by their trace id, about 10% of 950 (binomial sd ~9)
    const kept = roots.filter((c) => !failing((c.inputs as { i: number }).i));
    for (const c of kept) expect(keptByRate(c.trace_id, 0.1)).toBe(true);
    expect(kept.length).toBeGreaterThan(95 - 40);
    expect(kept.length).toBeLessThan(95 + 40);
    // counted in this process: every trace either sent or left out
    expect(after.keptTraces - before.keptTraces).toBe(roots.length);
    expect(after.sampledOutTraces - before.sampledOutTraces).toBe(TRACES - roots.length);
  });
});
