// @weft-test: postgres runtime runtime-postgres
// Tests of POST /calls/stream_query over loopback HTTP: every CallsFilter field, paging, order, framing, derived summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { PROJECT, batch, end, endItem, ids, post, query, start, startItem } from 'weft-test-kit/server-http.js';

const REF_A = 'svc:///acme/demo/object/dataset:abc123';
const REF_B = 'svc:///acme/demo/object/model:def456';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
  // started_at order: root(10:00) c1(10:01) c2(10:02) other(10:03) e1,e2 tie at 10:04 (ids e1 < e2).
  await batch(server, [
    startItem(start({ id: 'c2', op_name: 'child', parent_id: 'root', trace_id: 't1', started_at: '2024-05-01T10:02:00Z',
      thread_id: 'th2', turn_id: 'tu2', svc_run_id: 'run2', svc_user_id: 'u2', inputs: { deep: [{ x: `use ${REF_B}` }] } })),
    startItem(start({ id: 'root', op_name: 'agent', trace_id: 't1', started_at: '2024-05-01T10:00:00Z',
      thread_id: 'th1', turn_id: 'tu1', svc_run_id: 'run1', svc_user_id: 'u1', inputs: { data: REF_A } })),
    startItem(start({ id: 'c1', op_name: 'child', parent_id: 'root', trace_id: 't1', started_at: '2024-05-01T10:01:00Z',
      thread_id: 'th1', turn_id: 'tu1', svc_run_id: 'run1', svc_user_id: 'u1' })),
    startItem(start({ id: 'other', op_name: 'solo', trace_id: 't2', started_at: '2024-05-01T10:03:00Z' })),
    startItem(start({ id: 'e2', op_name: 'tie', trace_id: 't3', started_at: '2024-05-01T10:04:00Z' })),
    startItem(start({ id: 'e1', op_name: 'tie', trace_id: 't3', started_at: '2024-05-01T10:04:00Z' })),
    startItem(start({ project_id: 'someone/else', id: 'foreign', started_at: '2024-05-01T09:00:00Z' })),
    endItem(end('c1', { ended_at: '2024-05-01T10:01:00.250Z', output: { model: REF_B } })),
    endItem(end('c2', { ended_at: '2024-05-01T10:02:01Z', exception: { type: 'ValueError', message: 'bad' } })),
    endItem(end('root', { ended_at: '2024-05-01T10:05:00Z', summary: { status_counts: { success: 1, error: 1 } } })),
    endItem(end('other', { ended_at: '2024-05-01T10:03:02Z', output: [REF_A] })),
  ]);
});
afterAll(() => server.close());

const DEFAULT_ORDER = ['root', 'c1', 'c2', 'other', 'e1', 'e2'];

describe('POST /calls/stream_query filters', () => {
  it.each([
    [{ call_ids: ['c1', 'other', 'foreign'] }, ['c1', 'other']],
    [{ op_names: ['child', 'solo'] }, ['c1', 'c2', 'other']],
    [{ parent_ids: ['root'] }, ['c1', 'c2']],
    [{ thread_ids: ['th2'] }, ['c2']],
    [{ trace_ids: ['t2', 't3'] }, ['other', 'e1', 'e2']],
    [{ turn_ids: ['tu1'] }, ['root', 'c1']],
    [{ svc_run_ids: ['run2'] }, ['c2']],
    [{ svc_user_ids: ['u1'] }, ['root', 'c1']],
    [{ trace_roots_only: true }, ['root', 'other', 'e1', 'e2']],
    [{ trace_roots_only: false }, DEFAULT_ORDER],
    [{ input_refs: [REF_A] }, ['root']],
    [{ input_refs: [REF_B] }, ['c2']],
    [{ output_refs: [REF_B] }, ['c1']],
    [{ output_refs: [REF_A, REF_B] }, ['c1', 'other']],
    [{ input_refs: ['svc:///acme/demo/object/dataset:abc'] }, []],
    [{ op_names: [] }, DEFAULT_ORDER],
    [{ op_names: ['child'], turn_ids: ['tu2'] }, ['c2']],
    [{ call_ids: ['c2', 'c1', 'e1', 'foreign'], op_names: ['child'] }, ['c1', 'c2']],
  ])('filter %j → %j', async (filter, expected) => {
    expect(ids(await query(server, { filter }))).toEqual(expected);
  });

  it('is scoped by project_id', async () => {
    expect(ids(await query(server, { project_id: 'someone/else' }))).toEqual(['foreign']);
    expect(await query(server, { project_id: 'nobody/here' })).toEqual([]);
  });
});

describe('POST /calls/stream_query order and paging', () => {
  it('defaults to started_at asc, then id asc', async () => {
    expect(ids(await query(server))).toEqual(DEFAULT_ORDER);
  });

  it('sorts by sort_by asc and desc, breaking ties by id asc', async () => {
    expect(ids(await query(server, { sort_by: [{ field: 'started_at', order: 'desc' }] }))).toEqual(['e1', 'e2', 'other', 'c2', 'c1', 'root']);
    expect(ids(await query(server, { sort_by: [{ field: 'op_name', order: 'asc' }] }))).toEqual(['root', 'c1', 'c2', 'other', 'e1', 'e2']);
    expect(ids(await query(server, { sort_by: [{ field: 'op_name', direction: 'desc' }] }))).toEqual(['e1', 'e2', 'other', 'c1', 'c2', 'root']);
    expect(ids(await query(server, { sort_by: [{ field: 'id', order: 'desc' }] }))).toEqual(['root', 'other', 'e2', 'e1', 'c2', 'c1']);
  });

  it('sorts by a derived summary field and by a dotted JSON path', async () => {
    const byLatency = await query(server, { sort_by: [{ field: 'summary.latency_ms', order: 'desc' }], filter: { trace_ids: ['t1', 't2'] } });
    expect(ids(byLatency)).toEqual(['root', 'other', 'c2', 'c1']);
    const byCount = await query(server, { sort_by: [{ field: 'summary.status_counts.error', order: 'desc' }], limit: 1 });
    expect(ids(byCount)).toEqual(['root']);
  });

  it('applies limit and offset after ordering', async () => {
    expect(ids(await query(server, { limit: 2 }))).toEqual(['root', 'c1']);
    expect(ids(await query(server, { offset: 4 }))).toEqual(['e1', 'e2']);
    expect(ids(await query(server, { limit: 2, offset: 3 }))).toEqual(['other', 'e1']);
    expect(await query(server, { limit: 0 })).toEqual([]);
    expect(ids(await query(server, { limit: null, offset: null }))).toEqual(DEFAULT_ORDER);
  });
});

describe('POST /calls/stream_query answers', () => {
  it('answers JSONL with exactly the record keys, in wire order', async () => {
    const res = await post(server, '/calls/stream_query', { project_id: PROJECT, filter: { call_ids: ['c1'] } });
    expect(res.headers.get('content-type')).toBe('application/jsonl');
    const text = await res.text();
    expect(text.split('\n')).toHaveLength(2);
    expect(Object.keys(JSON.parse(text.trim()) as object)).toEqual([
      'id', 'project_id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id', 'started_at',
      'ended_at', 'attributes', 'inputs', 'output', 'exception', 'summary', 'svc_user_id', 'svc_run_id', 'svc_run_step',
      'svc_run_step_end',
    ]);
  });

  it('answers a JSON array when accept asks for application/json', async () => {
    const res = await post(server, '/calls/stream_query', { project_id: PROJECT, limit: 3 }, { accept: 'application/json' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(ids((await res.json()) as Record<string, unknown>[])).toEqual(['root', 'c1', 'c2']);
    const empty = await post(server, '/calls/stream_query', { project_id: 'nobody/here' }, { accept: 'application/json' });
    expect(await empty.json()).toEqual([]);
  });

  // summary.weave as Weave's test_trace_server_call_start_and_end answers it (no latency_ms while running)
  it('adds summary.status and summary.latency_ms, and Weave\'s summary.weave', async () => {
    const byId = Object.fromEntries((await query(server)).map((r) => [r['id'], r['summary']]));
    const weave = (status: string, trace_name: string, latency_ms?: number) => ({ weave: { status, trace_name, ...(latency_ms === undefined ? {} : { latency_ms }) } });
    expect(byId['c1']).toEqual({ status: 'success', latency_ms: 250, ...weave('success', 'child', 250) });
    expect(byId['c2']).toEqual({ status: 'error', latency_ms: 1000, ...weave('error', 'child', 1000) });
    expect(byId['root']).toEqual({ status_counts: { success: 1, error: 1 }, status: 'descendant_error', latency_ms: 300_000, ...weave('descendant_error', 'agent', 300_000) });
    expect(byId['e1']).toEqual({ status: 'running', latency_ms: null, ...weave('running', 'tie') });
  });

  it('matches call, parent and trace ids with or without dashes (an OTel trace id as printed)', async () => {
    const trace = '0192f5a0-1111-7222-8333-444455556666';
    const call = '0192f5a0-1111-7222-8333-777788889999';
    const child = '0192f5a0-1111-7222-8333-aaaabbbbcccc';
    await batch(server, [
      startItem(start({ id: call, trace_id: trace, op_name: 'dashed', started_at: '2024-05-01T11:00:00Z' })),
      startItem(start({ id: child, trace_id: trace, parent_id: call, op_name: 'dashed', started_at: '2024-05-01T11:00:01Z' })),
    ]);
    const bare = (id: string) => id.replaceAll('-', '');
    expect(ids(await query(server, { filter: { trace_ids: [bare(trace)] } }))).toEqual([call, child]);
    expect(ids(await query(server, { filter: { call_ids: [bare(child)] } }))).toEqual([child]);
    expect(ids(await query(server, { filter: { parent_ids: [bare(call)] } }))).toEqual([child]);
    expect(ids(await query(server, { filter: { call_ids: [call] } }))).toEqual([call]);
  });

  it('rejects an unknown filter key with 422 naming it, instead of answering every call', async () => {
    const res = await post(server, '/calls/stream_query', { project_id: PROJECT, filter: { op_name: ['child'], trace_roots_only: true } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
    expect(body.detail).toEqual([
      { loc: ['body', 'filter', 'op_name'], msg: 'Extra inputs are not permitted: unknown field "op_name"', type: 'extra_forbidden' },
    ]);
  });

  it('rejects an unknown sort field with 422', async () => {
    const res = await post(server, '/calls/stream_query', { project_id: PROJECT, sort_by: [{ field: 'nope', order: 'asc' }] });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]?.loc).toEqual(['body', 'sort_by', '0', 'field']);
  });
});
