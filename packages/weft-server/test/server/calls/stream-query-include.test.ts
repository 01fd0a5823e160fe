// @weft-test: postgres
// stream_query include_* options through the typed client: costs, storage sizes, usernames, feedback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';
import { LATENCY_RELATIVE_ERROR } from '../../../src/server/stats/latency-histogram.js';

const CUSTOM = { 'acme-llm': { promptUsdPer1M: 7, completionUsdPer1M: 21 }, 'gpt-4o': { promptUsdPer1M: 1, completionUsdPer1M: 2 } };
const server = useTestServer({ users: { 'u-1': 'Ada Lovelace', 'u-2': 'Grace Hopper' }, prices: CUSTOM });
let client: Client;
const project = uniqueProject('include');

const startRoot = {
  project_id: project, id: 'root', trace_id: 'tr', op_name: 'agent', display_name: 'Agent ✓',
  started_at: '2024-05-01T10:00:00.000Z', inputs: { text: 'héllo wörld', n: 3 }, attributes: { env: 'dev' },
  svc_user_id: 'u-1', svc_run_id: 'run-1', svc_run_step: 12,
};
const startChild = {
  project_id: project, id: 'child', trace_id: 'tr', parent_id: 'root', op_name: 'llm',
  started_at: '2024-05-01T10:00:01.000Z', inputs: {}, attributes: {}, svc_user_id: 'u-unknown',
};
const usage = {
  'gpt-4o-mini-2024-07-18': { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, requests: 2 },
  'acme-llm': { prompt_tokens: 10, completion_tokens: 5, requests: 1 },
  'gpt-4o': { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, requests: 1 },
  'unpriced-model': { prompt_tokens: 99, completion_tokens: 1 },
};
const endRoot = { project_id: project, id: 'root', ended_at: '2024-05-01T10:00:02.000Z', output: { answer: 'ünïcode' }, summary: { usage } };

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  await client.calls.upsertBatch({
    batch: [
      { mode: 'start', req: { start: startRoot } },
      { mode: 'start', req: { start: startChild } },
      { mode: 'end', req: { end: endRoot } },
      { mode: 'start', req: { start: { ...startChild, id: 'other', trace_id: 'tr2', parent_id: null, svc_user_id: null } } },
    ],
  });
});
afterAll(() => client.close());

const byId = async (extra: object) => {
  const records = await client.calls.streamQuery({ project_id: project, ...extra }).toArray();
  return Object.fromEntries(records.map((r) => [r.id, r]));
};

describe('include_costs', () => {
  it('prices summary.usage per model: the custom table first, then genai-prices', async () => {
    const { root, child } = await byId({ include_costs: true });
    const costs = root!.summary!.costs!;
    const mini = { promptUsdPer1M: 0.15, completionUsdPer1M: 0.6 }; // genai-prices' gpt-4o-mini list price
    expect(costs['gpt-4o-mini-2024-07-18']).toMatchObject({
      priced_as: 'gpt-4o-mini',
      prompt_tokens: 1200,
      completion_tokens: 300,
      requests: 2,
      total_tokens: 1500,
      cost_unit: 'USD',
      price_source: 'genai-prices',
    });
    expect(costs['gpt-4o-mini-2024-07-18']!.prompt_tokens_total_cost).toBeCloseTo((1200 * mini.promptUsdPer1M) / 1e6, 12);
    expect(costs['gpt-4o-mini-2024-07-18']!.completion_tokens_total_cost).toBeCloseTo((300 * mini.completionUsdPer1M) / 1e6, 12);
    expect(costs['acme-llm']!.total_cost).toBeCloseTo((10 * 7 + 5 * 21) / 1e6, 12);
    expect(costs['acme-llm']!.total_tokens).toBe(15);
    expect(costs['gpt-4o']!.total_cost).toBeCloseTo((1000 * 1 + 100 * 2) / 1e6, 12);
    expect(costs['gpt-4o']!.prompt_token_cost).toBeCloseTo(1 / 1e6, 15);
    expect(Object.keys(costs).sort()).toEqual(['acme-llm', 'gpt-4o', 'gpt-4o-mini-2024-07-18']);
    expect(child!.summary).not.toHaveProperty('costs'); // no priced model: no key, as Weave (issue 26 point 12)
    expect(root!.summary!.usage).toEqual(usage);
  });

  it('adds nothing when not asked', async () => {
    const { root } = await byId({});
    expect(root!.summary).not.toHaveProperty('costs');
    expect(root).not.toHaveProperty('storage_size_bytes');
    expect(root).not.toHaveProperty('svc_user_name');
  });
});

/** Bytes of the row as stored: every column's text (JSON columns as JSON, integers as digits). */
function rowBytes(values: unknown[]): number {
  return values.reduce<number>((sum, v) => sum + (v === null || v === undefined ? 0 : Buffer.byteLength(typeof v === 'string' ? v : String(v))), 0);
}
const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

describe('include_storage_size / include_total_storage_size', () => {
  const rootBytes = rowBytes([
    project, 'root', 'agent', 'Agent ✓', 'tr', null, null, null, startRoot.started_at, endRoot.ended_at,
    json(startRoot.attributes), json(startRoot.inputs), json(endRoot.output), null, json(endRoot.summary), null,
    'u-1', 'run-1', 12,
  ]);
  const childBytes = rowBytes([
    project, 'child', 'llm', null, 'tr', 'root', null, null, startChild.started_at, null, '{}', '{}', null, null, null, null,
    'u-unknown', null, null,
  ]);

  it('gives the bytes of each stored row and their sum over the trace', async () => {
    const { root, child, other } = await byId({ include_storage_size: true, include_total_storage_size: true });
    expect(root!.storage_size_bytes).toBe(rootBytes);
    expect(child!.storage_size_bytes).toBe(childBytes);
    expect(root!.total_storage_size_bytes).toBe(rootBytes + childBytes);
    expect(child!.total_storage_size_bytes).toBe(rootBytes + childBytes);
    expect(other!.total_storage_size_bytes).toBe(other!.storage_size_bytes);
  });

  it('keeps the sizes when columns leave them out', async () => {
    const records = await client.calls
      .streamQuery({ project_id: project, columns: ['op_name'], include_storage_size: true, filter: { call_ids: ['root'] } })
      .toArray();
    expect(records).toEqual([{ id: 'root', op_name: 'agent', storage_size_bytes: rootBytes, project_id: project, trace_id: expect.any(String), started_at: expect.any(String) }]);
  });
});

describe('include_usernames', () => {
  it('resolves svc_user_id through the users table; unknown or absent ids give null', async () => {
    const { root, child, other } = await byId({ include_usernames: true });
    expect(root!.svc_user_name).toBe('Ada Lovelace');
    expect(child!.svc_user_name).toBeNull();
    expect(other!.svc_user_name).toBeNull();
  });

  it('sees users added while the server runs', async () => {
    await server().store.setUsers({ 'u-unknown': 'Late Comer' });
    const { child } = await byId({ include_usernames: true });
    expect(child!.svc_user_name).toBe('Late Comer');
  });
});

describe('include_feedback', () => {
  it("adds each call's feedback records, oldest first, under summary.feedback", async () => {
    const ref = (id: string): string => `svc:///${project}/call/${id}`;
    const res = await post(server(), '/feedback/batch/create', {
      batch: [
        { project_id: project, svc_ref: ref('root'), feedback_type: 'score', payload: { value: 0.9 } },
        { project_id: project, svc_ref: ref('root'), feedback_type: 'note', payload: { text: 'ok' } },
        { project_id: project, svc_ref: ref('child'), feedback_type: 'score', payload: { value: 0.1 } },
      ],
    });
    expect(res.status).toBe(200);
    const { root, child, other } = await byId({ include_feedback: true });
    expect(root!.summary!.feedback!.map((f) => [f.feedback_type, f.payload])).toEqual([
      ['score', { value: 0.9 }],
      ['note', { text: 'ok' }],
    ]);
    expect(child!.summary!.feedback!.map((f) => f.payload)).toEqual([{ value: 0.1 }]);
    expect(other!.summary!.feedback).toEqual([]);
  });
});

/** A percentile read from the overview's latency histogram: within its stated relative error of the exact one. */
const expectNear = (got: unknown, exact: number): void => {
  expect(typeof got).toBe('number');
  expect(Math.abs((got as number) - exact)).toBeLessThanOrEqual(exact * LATENCY_RELATIVE_ERROR);
};

describe('POST /weft/calls/overview (a weft extension)', () => {
  const ov = project.replace('include', 'overview');
  const root = (id: string, op: string, minute: number, ms: number, summary: Record<string, unknown>, error = false) => [
    { mode: 'start', req: { start: { project_id: ov, id, trace_id: `t-${id}`, op_name: op, started_at: `2024-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`, inputs: {}, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: ov, id, ended_at: new Date(Date.parse(`2024-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`) + ms).toISOString(), summary, ...(error ? { exception: { type: 'E', message: 'boom' } } : {}) } } },
  ];
  const u = (model: string, p: number, c: number) => ({ usage: { [model]: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c, requests: 1 } } });

  beforeAll(async () => {
    const items = [
      ...root('a', 'agent', 1, 100, u('gpt-4o', 1000, 100)),
      ...root('b', 'agent', 2, 300, u('gpt-4o', 2000, 200), true),
      ...root('c', 'search', 7, 200, u('acme-llm', 10, 5)),
      ...root('d', 'search', 8, 400, {}),
      ...root('late', 'agent', 30, 1, u('gpt-4o', 1, 1)), // outside the window
    ];
    expect((await post(server(), '/call/upsert_batch', { batch: items })).status).toBe(200);
  });

  const overview = async (body: Record<string, unknown>) => {
    const res = await post(server(), '/weft/calls/overview', { project_id: ov, start: '2024-05-01T10:00:00Z', end: '2024-05-01T10:10:00Z', granularity: 300, ...body });
    expect(res.status).toBe(200);
    return (await res.json()) as { totals: Record<string, unknown>; buckets: Record<string, unknown>[]; groups?: { key: string; totals: Record<string, unknown> }[]; granularity: number };
  };

  it('counts traces, errors, latency p50 / p95, tokens and the cost stream_query reports for the same window, per bucket', async () => {
    const got = await overview({});
    expect(got.granularity).toBe(300);
    expect(got.buckets.map((b) => [b['timestamp'], b['calls'], b['errors']])).toEqual([['2024-05-01T10:00:00.000Z', 2, 1], ['2024-05-01T10:05:00.000Z', 2, 0]]);
    expect(got.buckets[0]).toMatchObject({ input_tokens: 3000, output_tokens: 300 });
    // percentiles from the latency histogram: within its relative error of the exact ones (200 and 290 ms)
    expectNear(got.buckets[0]!['latency_p50_ms'], 200);
    expectNear(got.buckets[0]!['latency_p95_ms'], 290);
    const roots = await client.calls.streamQuery({ project_id: ov, filter: { trace_roots_only: true }, include_costs: true,
      query: { $expr: { $lt: [{ $getField: 'started_at' }, { $literal: '2024-05-01T10:10:00Z' }] } } }).toArray();
    const reported = roots.reduce((sum, r) => sum + Object.values((r.summary?.['costs'] ?? {}) as Record<string, { total_cost: number }>).reduce((s, c) => s + c.total_cost, 0), 0);
    expect(reported).toBeGreaterThan(0);
    expect(got.totals['cost_usd']).toBeCloseTo(reported, 12);
    expect(got.totals).toMatchObject({ calls: 4, errors: 1, input_tokens: 3010, output_tokens: 305 });
  });

  it('splits by root op or by model (traces without usage as (none)); refuses an empty window with 422', async () => {
    expect((await overview({ group_by: 'op_name' })).groups!.map((g) => [g.key, g.totals['calls']])).toEqual([['agent', 2], ['search', 2]]);
    const byModel = (await overview({ group_by: 'model' })).groups!;
    expect(byModel.map((g) => [g.key, g.totals['calls'], g.totals['input_tokens']])).toEqual([['gpt-4o', 2, 3000], ['(none)', 1, 0], ['acme-llm', 1, 10]]);
    // 13 root ops in another window: the 11 with most roots (ties by name), the other 2 merged, their latencies pooled
    const many = Array.from({ length: 13 }, (_, i) => root(`o${i}`, `op${i}`, 40 + i, 100 * (i + 1), {})).flat();
    expect((await post(server(), '/call/upsert_batch', { batch: [...many, ...root('o0b', 'op0', 40, 50, {})] })).status).toBe(200);
    const split = (await overview({ start: '2024-05-01T10:40:00Z', end: '2024-05-01T11:00:00Z', granularity: 1200, group_by: 'op_name' })).groups!;
    expect(split.map((g) => g.key)).toEqual(['op0', 'op1', 'op10', 'op11', 'op12', 'op2', 'op3', 'op4', 'op5', 'op6', 'op7', '(other)']);
    expect(split.at(-1)!.totals).toMatchObject({ calls: 2 });
    expectNear(split.at(-1)!.totals['latency_p50_ms'], 950);
    expectNear(split.at(-1)!.totals['latency_p95_ms'], 995);
    const bad = await post(server(), '/weft/calls/overview', { project_id: ov, start: '2024-05-01T10:10:00Z', end: '2024-05-01T10:00:00Z' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'start']);
  });

  it('counts each root by the summary.status stream_query derives, for every shape of summary (cancelled, status_counts or none, a U+0000 escape)', async () => {
    const at = (minute: number) => `2024-05-01T11:${String(minute).padStart(2, '0')}:00.000Z`;
    const start = (id: string, trace: string, minute: number, parent?: string) =>
      ({ mode: 'start', req: { start: { project_id: ov, id, trace_id: `t-${trace}`, ...(parent ? { parent_id: parent } : {}), op_name: parent ? 'step' : 'shape', started_at: at(minute), inputs: {}, attributes: {} } } });
    const child = (id: string, parent: string, minute: number, failed: boolean) => [
      start(id, parent, minute, parent),
      { mode: 'end', req: { end: { project_id: ov, id, ended_at: at(minute + 1), summary: {}, ...(failed ? { exception: { type: 'E', message: 'boom' } } : {}) } } },
    ];
    const shapes: Array<[string, Record<string, unknown>, boolean?]> = [
      ['cancelled', { cancelled: true }],
      ['cancelled-text', { cancelled: 'yes' }],
      ['counted', { status_counts: { success: 1, error: 2 } }],
      ['counted-none', { status_counts: { success: 2, error: 0 } }, true], // counts given: no walk below it
      ['no-counts', {}, true],
      ['nul', { note: 'a\u0000b', status_counts: { error: 1 }, usage: { 'gpt-4o': { prompt_tokens: 5, completion_tokens: 0 } } }],
      ['failed', { status_counts: { error: 1 } }, false],
    ];
    const items = shapes.flatMap(([id, summary, failedChild], i) => [
      start(`s-${id}`, `s-${id}`, i),
      ...(failedChild === undefined ? [] : child(`c-${id}`, `s-${id}`, i, failedChild)),
      { mode: 'end', req: { end: { project_id: ov, id: `s-${id}`, ended_at: at(i + 2), summary, ...(id === 'failed' ? { exception: { type: 'E', message: 'boom' } } : {}) } } },
    ]);
    expect((await post(server(), '/call/upsert_batch', { batch: items })).status).toBe(200);
    const roots = (await client.calls.streamQuery({ project_id: ov, filter: { trace_roots_only: true } }).toArray()).filter((r) => r.op_name === 'shape');
    const statuses = roots.map((r) => [r.id, (r.summary as { status?: string }).status]).sort();
    expect(statuses).toEqual([['s-cancelled', 'cancelled'], ['s-cancelled-text', 'success'], ['s-counted', 'descendant_error'], ['s-counted-none', 'success'],
      ['s-failed', 'error'], ['s-no-counts', 'descendant_error'], ['s-nul', 'descendant_error']]);
    const count = (status: string) => statuses.filter(([, s]) => s === status).length;
    for (const group_by of [undefined, 'model']) {
      const got = await overview({ start: '2024-05-01T11:00:00Z', end: '2024-05-01T12:00:00Z', granularity: 3600, ...(group_by ? { group_by } : {}) });
      expect(got.totals).toMatchObject({ calls: shapes.length, errors: count('error'), descendant_errors: count('descendant_error'), input_tokens: 5, output_tokens: 0 });
    }
  });
});
