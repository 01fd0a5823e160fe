// @weft-test: postgres
// Tests of the $expr `query` of /calls/stream_query and of streaming many records across pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, post, PROJECT, query, start, startItem } from 'weft-test-kit/server-http.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
  await batch(server, [
    startItem(start({ id: 'a', op_name: 'Search', started_at: '2024-05-01T10:00:00Z', svc_run_step: 1, attributes: { env: 'prod', n: 5 } })),
    startItem(start({ id: 'b', op_name: 'search_docs', started_at: '2024-05-01T10:01:00Z', svc_run_step: 2, attributes: { env: 'dev', n: 10 } })),
    startItem(start({ id: 'c', op_name: 'rank', started_at: '2024-05-01T10:02:00Z', svc_run_step: 3, attributes: { n: 7 } })),
    endItem(end('a', { ended_at: '2024-05-01T10:00:02Z' })),
    endItem(end('b', { ended_at: '2024-05-01T10:01:00.500Z', exception: 'boom' })),
  ]);
});
afterAll(() => server.close());

const f = (field: string): { $getField: string } => ({ $getField: field });
const lit = (v: unknown): { $literal: unknown } => ({ $literal: v });

describe('stream_query $expr', () => {
  it.each([
    [{ $eq: [f('op_name'), lit('rank')] }, ['c']],
    [{ $gt: [f('svc_run_step'), lit(1)] }, ['b', 'c']],
    [{ $gte: [f('svc_run_step'), lit(2)] }, ['b', 'c']],
    [{ $lt: [f('svc_run_step'), lit(2)] }, ['a']],
    [{ $lte: [f('started_at'), lit('2024-05-01T10:01:00.000Z')] }, ['a', 'b']],
    [{ $in: [f('id'), [lit('a'), lit('c'), lit('zz')]] }, ['a', 'c']],
    [{ $in: [f('id'), []] }, []],
    [{ $contains: { input: f('op_name'), substr: lit('search') } }, ['b']],
    [{ $contains: { input: f('op_name'), substr: lit('search'), case_insensitive: true } }, ['a', 'b']],
    [{ $not: [{ $eq: [f('attributes.env'), lit('prod')] }] }, ['b', 'c']],
    [{ $and: [{ $gt: [f('attributes.n'), lit(4)] }, { $lt: [f('attributes.n'), lit(8)] }] }, ['a', 'c']],
    [{ $or: [{ $eq: [f('id'), lit('a')] }, { $eq: [f('attributes.env'), lit('dev')] }] }, ['b', 'a'].sort()],
    [{ $and: [] }, ['a', 'b', 'c']],
    [{ $eq: [f('summary.status'), lit('running')] }, ['c']],
    [{ $eq: [f('summary.status'), lit('error')] }, ['b']],
    [{ $gt: [f('summary.latency_ms'), lit(1000)] }, ['a']],
    [{ $eq: [{ $convert: { input: f('attributes.env'), to: 'exists' } }, lit(false)] }, ['c']],
    [{ $gt: [{ $convert: { input: f('attributes.n'), to: 'string' } }, lit('6')] }, ['c']],
    [{ $eq: [f('display_name'), lit(null)] }, ['a', 'b', 'c']],
  ])('%j → %j', async ($expr, expected) => {
    expect(ids(await query(server, { query: { $expr } }))).toEqual(expected);
  });

  it('combines query with filter and paging', async () => {
    const records = await query(server, {
      query: { $expr: { $gte: [f('svc_run_step'), lit(1)] } },
      filter: { call_ids: ['a', 'c'] },
      sort_by: [{ field: 'svc_run_step', order: 'desc' }],
      limit: 1,
    });
    expect(ids(records)).toEqual(['c']);
  });

  it('answers 422 for an unknown field and for a malformed expression', async () => {
    const unknown = await post(server, '/calls/stream_query', { project_id: PROJECT, query: { $expr: { $eq: [f('nope'), lit(1)] } } });
    expect(unknown.status).toBe(422);
    const body = (await unknown.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]?.loc).toEqual(['body', 'query', '$expr', '$eq', '0', '$getField']);
    const malformed = await post(server, '/calls/stream_query', { project_id: PROJECT, query: { $expr: { $bogus: [] } } });
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc.slice(0, 3)).toEqual(['body', 'query', '$expr']);
  });
});

describe('stream_query over many records', () => {
  it('streams every record across pages, honouring limit and offset', async () => {
    const project = 'acme/bulk';
    const items = Array.from({ length: 1234 }, (_, i) =>
      startItem(start({ project_id: project, id: `call-${String(i).padStart(5, '0')}`, started_at: '2024-05-01T10:00:00Z' })),
    );
    await batch(server, items);
    const all = await query(server, { project_id: project });
    expect(all).toHaveLength(1234);
    expect(all[1233]?.['id']).toBe('call-01233');
    const window = await query(server, { project_id: project, offset: 150, limit: 500 });
    expect(ids(window)).toEqual(Array.from({ length: 500 }, (_, i) => `call-${String(i + 150).padStart(5, '0')}`));
    const res = await post(server, '/calls/stream_query', { project_id: project, offset: 1000 }, { accept: 'application/json' });
    expect(((await res.json()) as unknown[]).length).toBe(234);
  });
});
