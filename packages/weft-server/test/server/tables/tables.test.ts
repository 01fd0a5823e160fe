// @weft-test: postgres
// Tables on the real server through the typed client: digests, row_digests filter, paging, dotted sort, original_index.
import { describe, expect, it } from 'vitest';
import { useTestServer } from 'weft-test-kit/server.js';
import { useTestClient } from 'weft-test-kit/client.js';
import { sha } from 'weft-test-kit/digest.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { post } from 'weft-test-kit/server-http.js';
import { LIMITS } from 'weft-trace/wire';

const server = useTestServer();
const client = useTestClient(server);

// Rows written with keys already sorted, so their canonical JSON is plain JSON.stringify.
const ROWS = [
  { id: 'a', meta: { score: 0.5, tag: 'x' }, n: 3 },
  { id: 'b', meta: { score: 0.9, tag: 'y' }, n: 1 },
  { id: 'c', meta: { score: 0.1, tag: 'x' }, n: 2 },
  { id: 'd', meta: { score: 0.9, tag: 'z' }, n: 5 },
  { id: 'e', meta: { tag: 'x' }, n: 4 },
];

async function createTable(rows: unknown[] = ROWS): Promise<{ project: string; digest: string; rowDigests: string[] }> {
  const project = uniqueProject('tables');
  const res = await client().tables.create({ project_id: project, rows });
  return { project, digest: res.digest, rowDigests: res.row_digests };
}

describe('POST /table/create (extension) digests', () => {
  it('row digest = sha256 of the row JSON as base64url with - -> X, _ -> Y, no =; table digest over the row digests', async () => {
    const { digest, rowDigests } = await createTable();
    const expected = ROWS.map((r) => sha(JSON.stringify(r)));
    expect(rowDigests).toEqual(expected);
    expect(digest).toBe(sha(JSON.stringify(expected)));
    for (const d of [digest, ...rowDigests]) expect(d).toMatch(/^[A-Za-z0-9XY]{43}$/);
  });

  it('key order does not change a digest (canonical JSON sorts keys at every depth)', async () => {
    const { rowDigests } = await createTable([{ z: 1, a: { y: [1, { c: 2, b: 1 }], x: 'é' } }]);
    expect(rowDigests[0]).toBe(sha('{"a":{"x":"é","y":[1,{"b":1,"c":2}]},"z":1}'));
  });

  it('is idempotent: the same rows give the same digests and the table keeps one copy of them', async () => {
    const { project, digest } = await createTable();
    const again = await client().tables.create({ project_id: project, rows: ROWS });
    expect(again.digest).toBe(digest);
    expect((await client().tables.query({ project_id: project, digest })).rows).toHaveLength(ROWS.length);
  });

  it('stores non-object rows and an empty table', async () => {
    const { project, digest, rowDigests } = await createTable([1, 'two', null, [3]]);
    expect(rowDigests).toEqual(['1', '"two"', 'null', '[3]'].map(sha));
    expect((await client().tables.query({ project_id: project, digest })).rows.map((r) => r.val)).toEqual([1, 'two', null, [3]]);
    const empty = await createTable([]);
    expect(empty.digest).toBe(sha('[]'));
    expect((await client().tables.query({ project_id: empty.project, digest: empty.digest })).rows).toEqual([]);
  });
});

describe('POST /table/query', () => {
  it('returns rows in insertion order by default, each with digest, val and original_index', async () => {
    const { project, digest, rowDigests } = await createTable();
    const { rows } = await client().tables.query({ project_id: project, digest });
    expect(rows).toEqual(ROWS.map((val, i) => ({ digest: rowDigests[i], val, original_index: i })));
  });

  it('filters by row_digests, keeping table order and original_index', async () => {
    const { project, digest, rowDigests } = await createTable();
    const { rows } = await client().tables.query({ project_id: project, digest, filter: { row_digests: [rowDigests[3]!, rowDigests[1]!, 'nope'] } });
    expect(rows.map((r) => [r.original_index, r.digest])).toEqual([[1, rowDigests[1]], [3, rowDigests[3]]]);
  });

  it('returns every copy of a repeated row', async () => {
    const { project, digest, rowDigests } = await createTable([{ a: 1 }, { a: 2 }, { a: 1 }]);
    expect(rowDigests[0]).toBe(rowDigests[2]);
    const { rows } = await client().tables.query({ project_id: project, digest, filter: { row_digests: [rowDigests[0]!] } });
    expect(rows.map((r) => r.original_index)).toEqual([0, 2]);
  });

  it('pages with limit and offset (offset first), alone or together', async () => {
    const { project, digest } = await createTable();
    const idx = async (extra: { limit?: number; offset?: number }) =>
      (await client().tables.query({ project_id: project, digest, ...extra })).rows.map((r) => r.original_index);
    expect(await idx({ limit: 2 })).toEqual([0, 1]);
    expect(await idx({ offset: 3 })).toEqual([3, 4]);
    expect(await idx({ limit: 2, offset: 2 })).toEqual([2, 3]);
    expect(await idx({ limit: 0 })).toEqual([]);
    expect(await idx({ offset: 10 })).toEqual([]);
  });

  it('sorts on dotted paths into val, asc and desc, ties in insertion order, missing values last', async () => {
    const { project, digest } = await createTable();
    const ids = async (sort_by: { field: string; order?: 'asc' | 'desc' }[], extra = {}) =>
      (await client().tables.query({ project_id: project, digest, sort_by, ...extra })).rows.map((r) => (r.val as { id: string }).id);
    expect(await ids([{ field: 'meta.score', order: 'asc' }])).toEqual(['c', 'a', 'b', 'd', 'e']);
    expect(await ids([{ field: 'meta.score', order: 'desc' }])).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(await ids([{ field: 'meta.score' }])).toEqual(['c', 'a', 'b', 'd', 'e']);
    expect(await ids([{ field: 'meta.tag' }, { field: 'n', order: 'desc' }])).toEqual(['e', 'a', 'c', 'b', 'd']);
    expect(await ids([{ field: 'n' }], { limit: 2, offset: 1 })).toEqual(['c', 'a']);
  });

  // Weave's tests/trace/test_table_query.py: generate_table_data (ids shuffled, nested_col.prop_a by id, col_0 with
  // repeats), then test_table_query_sort_by_column, _sort_by_nested_column, _combined and _multiple_sort_criteria
  it('test_table_query sort cases: by column, nested column, combined with paging, several criteria', async () => {
    const order = [7, 2, 9, 0, 5, 3, 8, 1, 6, 4];
    const data = order.map((i) => ({ id: i, nested_col: { prop_a: `value_${String.fromCharCode(97 + ((i * 7) % 10))}` }, col_0: `value_${i % 3}` }));
    const { project, digest } = await createTable(data);
    const vals = async (sort_by: { field: string; order: 'asc' | 'desc' }[], extra = {}) =>
      (await client().tables.query({ project_id: project, digest, sort_by, ...extra })).rows.map((r) => r.val);
    const byId = [...data].sort((a, b) => b.id - a.id);
    expect(await vals([{ field: 'id', order: 'desc' }])).toEqual(byId);
    expect(await vals([{ field: 'nested_col.prop_a', order: 'asc' }])).toEqual([...data].sort((a, b) => (a.nested_col.prop_a < b.nested_col.prop_a ? -1 : 1)));
    expect(await vals([{ field: 'id', order: 'desc' }], { limit: 5, offset: 2 })).toEqual(byId.slice(2, 7));
    const multi = [...data].sort((a, b) => (a.col_0 === b.col_0 ? b.id - a.id : a.col_0 < b.col_0 ? -1 : 1));
    expect(await vals([{ field: 'col_0', order: 'asc' }, { field: 'id', order: 'desc' }])).toEqual(multi);
  });

  // Weave's table query sorts a path as its calls query does (test_trace_call_sort_with_mixed_types's data as rows;
  // issue 26 point 4): numbers before strings, nulls and missing values last in both directions
  it.each([
    ['desc', [100, 2, 'b', 'a', null, null]],
    ['asc', [2, 100, 'a', 'b', null, null]],
  ] as const)('sorts mixed types %s as Weave: numbers, then strings, then nulls', async (order, seq) => {
    const { project, digest } = await createTable([{ prim: null }, { not_prim: 1 }, { prim: 100 }, { prim: 2 }, { prim: 'b' }, { prim: 'a' }]);
    const { rows } = await client().tables.query({ project_id: project, digest, sort_by: [{ field: 'prim', order }] });
    expect(rows.map((r) => (r.val as { prim?: unknown }).prim ?? null)).toEqual(seq);
  });

  it('sorts on a quoted segment holding dots', async () => {
    const { project, digest } = await createTable([{ m: { 'gpt-4.1': 2 } }, { m: { 'gpt-4.1': 1 } }, { m: { 'gpt-4.1': 3 } }]);
    const { rows } = await client().tables.query({ project_id: project, digest, sort_by: [{ field: 'm."gpt-4.1"', order: 'desc' }] });
    expect(rows.map((r) => r.original_index)).toEqual([2, 0, 1]);
  });

  it('sorts by an array element with a numeric segment and accepts `direction` as an alias of `order`', async () => {
    const { project, digest } = await createTable([{ xs: [3, 'b'] }, { xs: [1, 'c'] }, { xs: [2, 'a'] }]);
    const firsts = async (field: string) =>
      (await client().tables.query({ project_id: project, digest, sort_by: [{ field, direction: 'desc' }] })).rows.map((r) => r.original_index);
    expect(await firsts('xs.0')).toEqual([0, 2, 1]);
    expect(await firsts('xs.1')).toEqual([1, 0, 2]);
  });

  // Weave answers an unknown table digest with no rows (issue 26 point 12)
  it('answers rows: [] for an unknown digest, and for a digest of another project', async () => {
    const { digest } = await createTable();
    expect(await client().tables.query({ project_id: 'acme/other', digest })).toEqual({ rows: [] });
    expect(await client().tables.query({ project_id: 'acme/other', digest: 'x'.repeat(43) })).toEqual({ rows: [] });
  });
});

describe('malformed table bodies get 422 {detail}', () => {
  it('names each bad field', async () => {
    const cases: [string, unknown, string[]][] = [
      ['/table/query', { digest: 'd' }, ['body', 'project_id']],
      ['/table/query', { project_id: 'a/b' }, ['body', 'digest']],
      ['/table/query', { project_id: 'a/b', digest: 'd', limit: -1 }, ['body', 'limit']],
      ['/table/query', { project_id: 'a/b', digest: 'd', offset: 1.5 }, ['body', 'offset']],
      ['/table/query', { project_id: 'a/b', digest: 'd', sort_by: [{ field: 'x', order: 'up' }] }, ['body', 'sort_by', '0', 'order']],
      ['/table/query', { project_id: 'a/b', digest: 'd', filter: { row_digests: 'x' } }, ['body', 'filter', 'row_digests']],
      ['/table/query', { project_id: 'a/b', digest: 'd', filter: { row_digest: ['x'] } }, ['body', 'filter', 'row_digest']],
      ['/table/create', { project_id: 'a/b' }, ['body', 'rows']],
      ['/table/create', { rows: [] }, ['body', 'project_id']],
    ];
    for (const [path, body, loc] of cases) {
      const res = await post(server(), path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
      expect(detail.map((d) => d.loc), JSON.stringify(body)).toContainEqual(loc);
    }
  });

  it('refuses a malformed sort path with its location', async () => {
    const { project, digest } = await createTable();
    const res = await post(server(), '/table/query', { project_id: project, digest, sort_by: [{ field: 'meta..score' }] });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: string[] }[] };
    expect(detail[0]?.loc).toEqual(['body', 'sort_by', '0', 'field']);
  });
});

describe('big tables (issue 31): LIMITS.maxTableRows rows round-trip, one more is refused with 413', () => {
  const oneCharRows = (n: number): string[] => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26)));

  it('stores a table of LIMITS.maxTableRows one-character rows: every digest, the count, the last row', async () => {
    const rows = oneCharRows(LIMITS.maxTableRows);
    const { project, digest, rowDigests } = await createTable(rows);
    expect(rowDigests).toHaveLength(rows.length);
    expect(rowDigests.slice(0, 26)).toEqual(rows.slice(0, 26).map((r) => sha(JSON.stringify(r))));
    expect(new Set(rowDigests).size).toBe(26);
    expect(digest).toBe(sha(JSON.stringify(rowDigests)));
    const last = rows.length - 1;
    const tail = await client().tables.query({ project_id: project, digest, offset: last });
    expect(tail.rows).toEqual([{ digest: rowDigests[last], val: rows[last], original_index: last }]);
    expect((await client().tables.query({ project_id: project, digest, offset: rows.length })).rows).toEqual([]);
  });

  it('answers 413 with a clear detail past LIMITS.maxTableRows, in both body shapes, and stores nothing', async () => {
    const project = uniqueProject('tables');
    const rows = Array(LIMITS.maxTableRows + 1).fill(0);
    for (const body of [{ project_id: project, rows }, { table: { project_id: project, rows } }]) {
      const res = await post(server(), '/table/create', body);
      expect(res.status).toBe(413);
      const { detail } = (await res.json()) as { detail: string };
      expect(detail).toContain(`at most ${LIMITS.maxTableRows.toLocaleString('en-US')} rows`);
      expect(detail).toContain(`this one has ${rows.length.toLocaleString('en-US')}`);
    }
    const digest = sha(JSON.stringify(Array(rows.length).fill(sha('0'))));
    expect((await client().tables.query({ project_id: project, digest, limit: 1 })).rows).toEqual([]);
  });
});
