// @weft-test: postgres
// Online scoring (monitors) on both stores: the routes (422 detail, list, delete), a monitor scoring a sampled
// fraction of 1,000 ended calls within the binomial bound, the same calls picked by the server and by a worker over
// HTTP, a pass stopped after one page resumed by a new runner without scoring a call twice, and feedback idempotent
// per (monitor, call) when progress was never saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { MonitorRunner } from 'weft-trace/src/eval/monitors/monitor-pass.js';
import type { MonitorPort } from 'weft-trace/eval';
import { httpPort } from '../../src/cli/monitors-http-port.js';
import { MONITOR_PATHS, monitorTriggerRef, type Monitor } from 'weft-trace/viewer';
import { storePort } from '../../src/server/monitor-port.js';
import { storeParts } from '../../src/server/server-store.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

// the loop's own passes wait a day: the tests run each pass themselves (runOnce), so nothing races them
const server = useTestServer({ monitors: { intervalMs: 86_400_000, settleMs: 0 } });
const project = uniqueProject('monitors');
const N = 1000;
let client: Client;

const post = async (path: string, body: unknown): Promise<Response> =>
  fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const add = async (op: string, sample: number): Promise<Monitor> =>
  (await (await post(MONITOR_PATHS.create, { project_id: project, op_name: op, scorer: 'json_valid', sample_rate: sample })).json()) as Monitor;

/** Call id → the monitor's scores on it (one entry per feedback record). */
async function scoresBy(monitor: Monitor): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  for await (const r of client.calls.streamQuery({ project_id: project, filter: { op_names: [monitor.op_name] }, include_feedback: true })) {
    const mine = (r.summary?.feedback ?? []).filter((f) => f.trigger_ref === monitorTriggerRef(project, monitor.id));
    if (mine.length > 0) out.set(r.id, mine.map((f) => f.payload['output']));
  }
  return out;
}

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  const t0 = Date.now() - 3_600_000;
  const iso = (ms: number): string => new Date(ms).toISOString();
  const call = (op: string, i: number) => {
    const id = `${op}-${String(i).padStart(4, '0')}`;
    return [
      { mode: 'start', req: { start: { project_id: project, id, trace_id: `t-${id}`, op_name: op, started_at: iso(t0 + i), inputs: { i }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: project, id, ended_at: iso(t0 + i + 5), output: i % 4 === 0 ? 'not json {' : `{"a":${i}}`, summary: {} } } },
    ] as const;
  };
  const items = [...Array.from({ length: N }, (_, i) => call('answer', i)).flat(), ...Array.from({ length: 5 }, (_, i) => call('other', i)).flat()];
  await client.calls.upsertBatch({ batch: items as never });
});
afterAll(() => client.close());

describe('the monitor routes', () => {
  it('refuses a sample rate outside (0, 1] with 422 detail, and lists and removes monitors', async () => {
    const bad = await post(MONITOR_PATHS.create, { project_id: project, op_name: 'x', scorer: 'json_valid', sample_rate: 0 });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[]; type: string }[] }).detail[0]!.loc).toEqual(['body', 'sample_rate']);
    const m = await add('unused', 0.5);
    const listed = async () => ((await (await post(MONITOR_PATHS.list, { project_id: project })).json()) as { monitors: Monitor[] }).monitors.map((x) => x.id);
    expect(await listed()).toContain(m.id);
    expect(await (await post(MONITOR_PATHS.delete, { project_id: project, id: m.id })).json()).toEqual({ deleted: true });
    expect(await listed()).not.toContain(m.id);
    expect((await post(MONITOR_PATHS.progress, { project_id: project, id: m.id, cursor_ended_at: 'x', cursor_call_id: 'y' })).status).toBe(404);
  });
});

describe('scoring sampled calls', () => {
  it('scores a sampled fraction of 1,000 calls within the binomial bound, once, and the server and a worker pick the same calls', async () => {
    const inServer = await add('answer', 0.1);
    const first = await server().monitors!.runOnce();
    expect(first.read).toBe(N); // the other op's calls are not read
    const scores = await scoresBy(inServer);
    expect(scores.size).toBeGreaterThanOrEqual(60);
    expect(scores.size).toBeLessThanOrEqual(140);
    expect(first.scored).toBe(scores.size);
    expect([...scores.values()].every((s) => s.length === 1)).toBe(true);
    // json_valid's verdicts are about each call's own output
    for (const [id, [valid]] of scores) expect(valid).toBe(Number(id.slice(-4)) % 4 !== 0);
    // progress saved: a second pass reads nothing and scores nothing
    expect(await server().monitors!.runOnce()).toEqual({ read: 0, scored: 0 });

    // the same op at the same rate, run by a worker over HTTP (its own runner, this project only): the same calls
    await post(MONITOR_PATHS.delete, { project_id: project, id: inServer.id });
    const inWorker = await add('answer', 0.1);
    const worker = await new MonitorRunner(httpPort(client, project), { settleMs: 0, pageSize: 150 }).pass();
    expect(worker.scored).toBe(scores.size);
    expect([...(await scoresBy(inWorker)).keys()].sort()).toEqual([...scores.keys()].sort());
    await post(MONITOR_PATHS.delete, { project_id: project, id: inWorker.id });
  });

  it('resumes after a stop from its saved progress, scoring no call twice, and stores a score once when progress was lost', async () => {
    const m = await add('answer', 0.5);
    const parts = storeParts(server().store);
    const stop = new AbortController();
    const port = storePort(parts);
    // a runner stopped after its first page (as a server shut down mid-pass)
    const stopping: MonitorPort = { ...port, saveProgress: async (...a) => { stop.abort(); return port.saveProgress(...a); } };
    const cut = await new MonitorRunner(stopping, { settleMs: 0, pageSize: 300 }).pass(stop.signal);
    expect(cut.read).toBe(300);
    expect((await parts.monitors.list(project)).find((x) => x.id === m.id)!.cursor_call_id).toBe('answer-0299');
    // the restarted runner reads the rest only
    const rest = await new MonitorRunner(port, { settleMs: 0, pageSize: 300 }).pass();
    expect(rest.read).toBe(N - 300);
    const scores = await scoresBy(m);
    expect(cut.scored + rest.scored).toBe(scores.size);
    expect(scores.size).toBeGreaterThan(400);
    expect(scores.size).toBeLessThan(600);
    expect([...scores.values()].every((s) => s.length === 1)).toBe(true);

    // progress never saved (a crash between the feedback write and the save): the calls are scored again, stored once
    const forgetful: MonitorPort = { ...port, monitors: async () => [{ ...m, cursor_ended_at: null, cursor_call_id: null }], saveProgress: async () => true };
    const again = await new MonitorRunner(forgetful, { settleMs: 0, pageSize: 500 }).pass();
    expect(again.scored).toBe(scores.size);
    const after = await scoresBy(m);
    expect(after.size).toBe(scores.size);
    expect([...after.values()].every((s) => s.length === 1)).toBe(true);
  });
});
