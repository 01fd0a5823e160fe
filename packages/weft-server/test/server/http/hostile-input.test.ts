// @weft-test: postgres
// Tests of hostile request bodies (issue 11, items 1-4): deep nesting, control characters in paths, lists past their maxima and costly validation all answer 422 with a bounded detail, never 500.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIMITS } from 'weft-trace/wire';
import { useTestServer } from 'weft-test-kit/server.js';
import { PROJECT, end, endItem, post, start, startItem } from 'weft-test-kit/server-http.js';

const server = useTestServer();

interface Detail {
  loc: string[];
  msg: string;
  type: string;
}

/** `[[[...leaf...]]]` nested `depth` arrays deep, built as text (no recursion anywhere). */
function deepArrays(depth: number, leaf = '1'): string {
  return '['.repeat(depth) + leaf + ']'.repeat(depth);
}

/** `{"a":{"a":...}}` nested `depth` objects deep, as text. */
function deepObjects(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

async function detail(res: Response): Promise<Detail[]> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(422);
  return (JSON.parse(text) as { detail: Detail[] }).detail;
}

const FEEDBACK = (payload: string): string =>
  `{"batch":[{"project_id":"${PROJECT}","svc_ref":"svc:///${PROJECT}/call/c1","feedback_type":"note","payload":${payload}}]}`;
const TRAJECTORY = (messages: string): string => `{"split":"train","trajectory_groups":[{"trajectories":[{"reward":1,"messages_and_choices":${messages}}]}]}`;
const MODEL_LOG = `/v1/preview/models/${randomUUID()}/log`;
const QUERY = (expr: unknown): unknown => ({ project_id: PROJECT, query: { $expr: expr } });

async function tableDigest(): Promise<string> {
  const res = await post(server(), '/table/create', { project_id: PROJECT, rows: [{ x: 1 }, { x: 2 }] });
  expect(res.status).toBe(200);
  return ((await res.json()) as { digest: string }).digest;
}

describe('item 1: nesting deeper than LIMITS.maxJsonDepth answers 422 json_too_deep', () => {
  const cases: [string, string, string][] = [
    ['call input 10,000 deep', '/call/start', JSON.stringify({ start: start({ inputs: { a: '@' } }) }).replace('"@"', deepArrays(10_000))],
    ['end output 100,000 deep', '/call/upsert_batch', JSON.stringify({ batch: [endItem(end('c1', { output: '@' }))] }).replace('"@"', deepObjects(100_000))],
    ['feedback payload 100,000 deep', '/feedback/batch/create', FEEDBACK(`{"a":${deepArrays(100_000)}}`)],
    ['trajectory messages 100,000 deep', MODEL_LOG, TRAJECTORY(deepArrays(100_000))],
    ['table row 10,000 deep', '/table/create', `{"project_id":"${PROJECT}","rows":[${deepArrays(10_000)}]}`],
    ['$and 2,000 deep', '/calls/stream_query', JSON.stringify(QUERY('@')).replace('"@"', '{"$and":['.repeat(2000) + ']}'.repeat(2000))],
    ['a bare array 100,000 deep', '/call/start', deepArrays(100_000)],
  ];
  it.each(cases)('%s', async (_name, path, body) => {
    const d = await detail(await post(server(), path, body));
    expect(d).toHaveLength(1);
    expect(d[0]!.type).toBe('json_too_deep');
    expect(d[0]!.loc.length).toBe(LIMITS.maxJsonDepth + 1);
  });

  it('stores and answers a call input as deep as the limit allows', async () => {
    const room = LIMITS.maxJsonDepth - 6; // body, batch, item, req, start, inputs
    const id = randomUUID();
    const body = JSON.stringify({ batch: [startItem(start({ id, inputs: { a: '@' } }))] }).replace('"@"', deepArrays(room));
    expect((await post(server(), '/call/upsert_batch', body)).status).toBe(200);
    const q = await post(server(), '/calls/stream_query', { project_id: PROJECT, filter: { call_ids: [id] } });
    expect(q.status).toBe(200);
    expect((await q.text()).length).toBeGreaterThan(room * 2);
    const one = JSON.stringify({ batch: [startItem(start({ inputs: { a: '@' } }))] }).replace('"@"', deepArrays(room + 1));
    expect((await detail(await post(server(), '/call/upsert_batch', one)))[0]!.type).toBe('json_too_deep');
  });
});

describe('item 2: control characters in field paths answer 422 from the schema', () => {
  it.each(['\u0000', '\u001f', '\u007f', '\n'])('%j in sort_by, $getField, columns and json_path', async (ch) => {
    const digest = await tableDigest();
    const field = `inputs.x${ch}`;
    const bodies: [string, unknown, string[]][] = [
      ['/calls/stream_query', { project_id: PROJECT, sort_by: [{ field }] }, ['body', 'sort_by', '0', 'field']],
      ['/table/query', { project_id: PROJECT, digest, sort_by: [{ field }] }, ['body', 'sort_by', '0', 'field']],
      ['/calls/stream_query', QUERY({ $eq: [{ $getField: field }, { $literal: 1 }] }), ['body', 'query', '$expr']],
      ['/calls/stream_query', { project_id: PROJECT, columns: [field] }, ['body', 'columns', '0']],
      ['/feedback/stats', { project_id: PROJECT, start: '2024-01-01T00:00:00Z', metrics: [{ json_path: `x${ch}` }] }, ['body', 'metrics', '0', 'json_path']],
    ];
    for (const [path, body, loc] of bodies) {
      const d = await detail(await post(server(), path, body));
      expect(d[0]!.loc.slice(0, loc.length), path).toEqual(loc);
    }
  });
});

describe('item 3: lists past their documented maxima answer 422', () => {
  const lit = { $literal: 1 };
  const field = { $getField: 'op_name' };
  const cases: [string, string, () => Promise<unknown>, string[]][] = [
    ['$in with 200,000 literals', '/calls/stream_query', async () => QUERY({ $in: [field, Array(200_000).fill(lit)] }), ['body', 'query', '$expr']],
    ['$or with 100,000 terms', '/calls/stream_query', async () => QUERY({ $or: Array(100_000).fill(lit) }), ['body', 'query', '$expr']],
    ['sort_by with 100,000 entries', '/calls/stream_query', async () => ({ project_id: PROJECT, sort_by: Array(100_000).fill({ field: 'op_name' }) }), ['body', 'sort_by']],
    ['table sort_by with 100,000 entries', '/table/query', async () => ({ project_id: PROJECT, digest: await tableDigest(), sort_by: Array(100_000).fill({ field: 'x' }) }), ['body', 'sort_by']],
    ['10,000 feedback metrics', '/feedback/stats', async () => ({ project_id: PROJECT, start: '2024-01-01T00:00:00Z', metrics: Array.from({ length: 10_000 }, (_, i) => ({ json_path: `m${i}` })) }), ['body', 'metrics']],
    ['1,000 percentiles', '/feedback/stats', async () => ({ project_id: PROJECT, start: '2024-01-01T00:00:00Z', metrics: [{ json_path: 'm', percentiles: Array(1000).fill(50) }] }), ['body', 'metrics', '0', 'percentiles']],
    ['100,000 columns', '/calls/stream_query', async () => ({ project_id: PROJECT, columns: Array.from({ length: 100_000 }, (_, i) => `inputs.c${i}`) }), ['body', 'columns']],
    ['100,000 expand_columns', '/calls/stream_query', async () => ({ project_id: PROJECT, expand_columns: Array(100_000).fill('inputs.x') }), ['body', 'expand_columns']],
  ];
  it.each(cases)('%s', async (_name, path, body, loc) => {
    const d = await detail(await post(server(), path, await body()));
    expect(d[0]!.loc.slice(0, loc.length)).toEqual(loc);
    expect(d.length).toBeLessThanOrEqual(LIMITS.maxIssues + 1);
  });

  it('answers lists at their maxima, and $or terms nested twelve deep (a balanced SQL tree)', async () => {
    const ok = async (body: unknown): Promise<void> => {
      const res = await post(server(), '/calls/stream_query', body);
      expect(res.status, await res.clone().text()).toBe(200);
      await res.text();
    };
    await ok(QUERY({ $in: [field, Array(LIMITS.maxInValues).fill({ $literal: 'x' })] }));
    await ok(QUERY({ $or: Array(LIMITS.maxExprTerms).fill({ $literal: false }) }));
    let nested: unknown = { $literal: true };
    // the nested term first: a left-deep `a OR b OR ...` chain would be 12 * 100 deep, past SQLite's 1000
    for (let i = 0; i < 12; i++) nested = { $or: [nested, ...Array(LIMITS.maxExprTerms - 1).fill({ $literal: false })] };
    await ok(QUERY(nested));
    await ok({ project_id: PROJECT, sort_by: Array(LIMITS.maxSortBy).fill({ field: 'inputs.a' }) });
  });
});

describe('item 4: validation costs little and lists at most LIMITS.maxIssues problems', () => {
  it.each([
    ['/call/upsert_batch', (n: number) => ({ batch: Array(n).fill('x') })],
    ['/calls/stream_query', (n: number) => ({ project_id: PROJECT, sort_by: Array(n).fill('x') })],
    [MODEL_LOG, (n: number) => ({ split: 'train', trajectory_groups: Array(n).fill('x') })],
    ['/feedback/batch/create', (n: number) => ({ batch: Array(n).fill('x') })],
  ])('%s: a 4 MB body of 1M wrong-typed items answers 422 (its time: bench/hostile-figures.ts)', async (path, body) => {
    const text = JSON.stringify(body(1_000_000));
    expect(text.length).toBeGreaterThan(4_000_000);
    const d = await detail(await post(server(), path, text));
    expect(d.length).toBeLessThanOrEqual(LIMITS.maxIssues + 1);
    expect(JSON.stringify(d)).not.toContain('"x"');
  });

  it('lists the first LIMITS.maxIssues problems and counts the rest', async () => {
    const d = await detail(await post(server(), '/call/upsert_batch', { batch: Array(5000).fill('x') }));
    expect(d).toHaveLength(LIMITS.maxIssues + 1);
    expect(d[0]!.loc).toEqual(['body', 'batch', '0']);
    expect(d.at(-1)).toEqual({ loc: ['body'], msg: `${5000 - LIMITS.maxIssues} more validation problems not listed (at most ${LIMITS.maxIssues} are)`, type: 'too_many_errors' });
  });

  it(`checks a body over LIMITS.fullReportBytes only up to its first problem: 10,000 items wrong in every field`, async () => {
    const bad = startItem({ project_id: 1, op_name: 2, started_at: 3, attributes: 4, inputs: 5, display_name: 6, id: 7, parent_id: 8, trace_id: 9, svc_run_step: 'x' });
    const good = startItem(start());
    const text = JSON.stringify({ batch: [good, ...Array(LIMITS.maxBatchItems - 1).fill(bad)] });
    expect(text.length).toBeGreaterThan(LIMITS.fullReportBytes);
    const d = await detail(await post(server(), '/call/upsert_batch', text));
    expect(d.map((x) => x.type)).toEqual(['string_type', 'validation_stopped']);
    expect(d[0]!.loc).toEqual(['body', 'batch', '1', 'req', 'start', 'project_id']);
  });

  it('still names a missing field as missing', async () => {
    const { op_name: _dropped, ...noOpName } = start();
    const d = await detail(await post(server(), '/call/start', { start: noOpName }));
    expect(d).toEqual([{ loc: ['body', 'start', 'op_name'], msg: 'Field required', type: 'missing' }]);
  });
});
