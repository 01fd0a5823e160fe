// @weft-test: postgres
// stream_query $expr through the typed client: Unicode case folding, keys with dots, $convert, sort stability, injection attempts, index use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, q, ValidationError } from 'weft-trace';
import { openStore } from '../../../src/server/index.js';
import { compileCallsQuery } from '../../../src/server/calls/query/query-sql.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { storeParts } from '../../../src/server/server-store.js';

const server = useTestServer();
let client: Client;
const project = uniqueProject('expr');
const T0 = Date.parse('2024-05-01T10:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();

type Extra = { inputs?: Record<string, unknown>; attributes?: Record<string, unknown>; started_at?: string; op_name?: string };
const start = (id: string, extra: Extra = {}) => ({
  mode: 'start' as const,
  req: { start: { project_id: project, id, op_name: 'op', started_at: at(0), inputs: {}, attributes: {}, ...extra } },
});
const end = (id: string, summary: Record<string, unknown>) => ({
  mode: 'end' as const,
  req: { end: { project_id: project, id, ended_at: at(5), summary } },
});

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  await client.calls.upsertBatch({
    batch: [
      start('straße', { inputs: { text: 'Die STRASSE ist lang' }, op_name: 'ÉCOLE' }),
      start('greek', { inputs: { text: 'ΟΔΥΣΣΕΥΣ' } }),
      start('ascii', { inputs: { text: 'plain words' }, attributes: { flag: 'true', 'a.b': { c: 7 } } }),
      start('dotted', { attributes: { flag: 0 } }),
      end('dotted', { usage: { 'gpt-4.1': { total_tokens: 42 }, 'gpt-4': { total_tokens: 1 } } }),
      end('ascii', { usage: { 'gpt-4': { total_tokens: 5 } } }),
    ],
  });
});
afterAll(() => client.close());

const ids = async (query: ReturnType<typeof q.expr>, extra: object = {}): Promise<string[]> =>
  (await client.calls.streamQuery({ project_id: project, query, ...extra }).toArray()).map((r) => r.id).sort();

describe('$contains case_insensitive folds Unicode case', () => {
  it.each([
    ['straße', ['straße']],
    ['STRASSE', ['straße']],
    ['école', ['straße']],
    ['οδυσσευς', ['greek']],
    ['ΟΔΥΣΣΕΥΣ'.toLowerCase(), ['greek']],
    ['PLAIN', ['ascii']],
  ])('%s matches %j', async (needle, expected) => {
    const text = q.or(
      q.contains(q.field('inputs.text'), needle, { caseInsensitive: true }),
      q.contains(q.field('op_name'), needle, { caseInsensitive: true }),
    );
    expect(await ids(q.expr(text))).toEqual(expected);
  });

  it('stays case-sensitive without the flag', async () => {
    expect(await ids(q.expr(q.contains(q.field('inputs.text'), 'strasse')))).toEqual([]);
    expect(await ids(q.expr(q.contains(q.field('inputs.text'), 'STRASSE')))).toEqual(['straße']);
  });
});

describe('field paths reach keys that contain dots', () => {
  it('with a quoted segment', async () => {
    const expr = q.eq(q.field('summary.usage."gpt-4.1".total_tokens'), 42);
    expect(await ids(q.expr(expr))).toEqual(['dotted']);
  });

  it('unquoted: the plain split first, then keys holding dots', async () => {
    expect(await ids(q.expr(q.eq(q.field('summary.usage.gpt-4.1.total_tokens'), 42)))).toEqual(['dotted']);
    expect(await ids(q.expr(q.eq(q.field('summary.usage.gpt-4.total_tokens'), 5)))).toEqual(['ascii']);
    expect(await ids(q.expr(q.eq(q.field('attributes.a.b.c'), 7)))).toEqual(['ascii']);
  });

  it('sorts by a path through a key with dots', async () => {
    const records = await client.calls
      .streamQuery({ project_id: project, sort_by: [{ field: 'summary.usage."gpt-4.1".total_tokens', order: 'desc' }] })
      .toArray();
    expect(records[0]?.id).toBe('dotted');
  });

  it('answers 422 for a malformed path', async () => {
    const bad = client.calls.streamQuery({ project_id: project, query: q.expr(q.eq(q.field('inputs."open'), 1)) }).toArray();
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('$convert', () => {
  it('bool reads JSON paths (its input is bound once)', async () => {
    const truthy = q.eq(q.convert(q.field('attributes.flag'), 'bool'), true);
    expect(await ids(q.expr(truthy))).toEqual(['ascii']);
    const falsy = q.eq(q.convert(q.field('attributes.flag'), 'bool'), false);
    expect(await ids(q.expr(falsy))).toEqual(['dotted']);
  });

  it('exists, int and double', async () => {
    expect(await ids(q.expr(q.eq(q.convert(q.field('attributes.flag'), 'exists'), true)))).toEqual(['ascii', 'dotted']);
    expect(await ids(q.expr(q.gt(q.convert(q.field('summary.usage.gpt-4.total_tokens'), 'int'), 2)))).toEqual(['ascii']);
    expect(await ids(q.expr(q.lt(q.convert(q.field('summary.usage.gpt-4.total_tokens'), 'double'), 2.5)))).toEqual(['dotted']);
  });
});

describe('values are bound, never spliced into SQL', () => {
  it('an injection attempt in a literal matches nothing and breaks nothing', async () => {
    const attempt = "x' OR 1=1 --";
    expect(await ids(q.expr(q.eq(q.field('op_name'), attempt)))).toEqual([]);
    expect(await ids(q.expr(q.contains(q.field('inputs.text'), "') OR 1=1 --", { caseInsensitive: true })))).toEqual([]);
    expect(await ids(q.expr(q.in(q.field('id'), ["greek') OR ('1'='1", 'ascii'])))).toEqual(['ascii']);
  });

  it('an injection attempt in a field path reads a (missing) JSON key or is refused', async () => {
    expect(await ids(q.expr(q.eq(q.field("inputs.x') OR 1=1 --"), 1)))).toEqual([]);
    const quote = client.calls.streamQuery({ project_id: project, query: q.expr(q.eq(q.field('inputs.a"b'), 1)) }).toArray();
    await expect(quote).rejects.toBeInstanceOf(ValidationError);
    const column = client.calls.streamQuery({ project_id: project, sort_by: [{ field: 'id; DROP TABLE calls', order: 'asc' }] }).toArray();
    await expect(column).rejects.toBeInstanceOf(ValidationError);
    expect(await ids(q.expr(q.and()))).toHaveLength(4);
  });
});

describe('sort_by is stable', () => {
  it('breaks ties by id asc, for asc and desc sorts alike', async () => {
    const tied = uniqueProject('ties');
    const names = Array.from({ length: 40 }, (_, i) => `c${String((i * 17) % 40).padStart(2, '0')}`);
    await client.calls.upsertBatch({
      batch: names.map((id, i) => ({
        mode: 'start' as const,
        req: { start: { project_id: tied, id, op_name: `op${i % 3}`, started_at: at(i % 2), inputs: {}, attributes: { g: i % 4 } } },
      })),
    });
    for (const order of ['asc', 'desc'] as const) {
      const records = await client.calls.streamQuery({ project_id: tied, sort_by: [{ field: 'attributes.g', order }] }).toArray();
      const expected = [...records].sort((a, b) => {
        const ga = Number(a.attributes?.['g']);
        const gb = Number(b.attributes?.['g']);
        return (order === 'asc' ? ga - gb : gb - ga) || (a.id < b.id ? -1 : 1);
      });
      expect(records.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      const again = await client.calls.streamQuery({ project_id: tied, sort_by: [{ field: 'attributes.g', order }] }).toArray();
      expect(again.map((r) => r.id)).toEqual(records.map((r) => r.id));
    }
  });
});

describe('query plans', () => {
  const plan = (body: Parameters<typeof compileCallsQuery>[0]): string => {
    const store = openStore(':memory:');
    try {
      const { sql, params } = compileCallsQuery(body);
      const rows = storeParts(store).sqlite!.prepare(`EXPLAIN QUERY PLAN ${sql} LIMIT ? OFFSET ?`).all(...params, 1, 0) as { detail: string }[];
      return rows.map((r) => r.detail).join('\n');
    } finally {
      store.close();
    }
  };

  it.each([
    [{}, 'calls_started_at'],
    [{ filter: { op_names: ['answer'] } }, 'calls_op_name'],
    [{ filter: { trace_ids: ['t1'] } }, 'calls_trace'],
    [{ filter: { trace_roots_only: true } }, 'calls_'],
    [{ filter: { parent_ids: ['p'] } }, 'calls_parent'],
  ])('%j streams from an index without sorting first', (body, index) => {
    const detail = plan({ project_id: 'acme/demo', ...body });
    expect(detail).toContain(index);
    expect(detail).not.toContain('TEMP B-TREE');
  });

  it('finds calls by call_ids (an id in its two forms) through the primary key, not a walk of the started_at index', () => {
    const detail = plan({ project_id: 'acme/demo', filter: { call_ids: ['019a3c00-0000-7000-8000-00000000b16e', '019a3c0000007000800000000000b16e'] } });
    expect(detail).toContain('PRIMARY KEY');
    expect(detail).not.toContain('calls_started_at');
  });
});

describe('columns read', () => {
  const selected = (body: Partial<Parameters<typeof compileCallsQuery>[0]>): string => /^SELECT (.*?) FROM calls/.exec(compileCallsQuery({ project_id: 'acme/demo', ...body }).sql)![1]!;

  it('leaves the JSON columns the answer does not show unread (NULL), and reads those columns or expand_columns name', () => {
    // the trace page's tree: no inputs, output or attributes in the answer, so none read
    const tree = selected({ filter: { trace_ids: ['t1'] }, columns: ['id', 'parent_id', 'summary'], include_costs: true });
    expect(tree).toContain('NULL AS inputs');
    expect(tree).toContain('NULL AS output');
    expect(tree).toContain('NULL AS attributes');
    expect(tree).toMatch(/\bsummary\b/);
    expect(tree).toMatch(/(^|, )exception(,|$)/);
    const some = selected({ columns: ['inputs.question', 'output_dump'], expand_columns: ['attributes.ref'] });
    expect(some).not.toContain('NULL AS');
    expect(selected({})).not.toContain('NULL AS');
  });

  it('still answers 422 for an unknown column', () => {
    expect(() => compileCallsQuery({ project_id: 'acme/demo', columns: ['nope'] })).toThrow(/unknown column "nope"/);
  });
});

describe('on a database file (snapshot cursor with its own connection)', () => {
  it('has the query functions registered too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'weft-expr-'));
    const fileServer = await startTestServer({ dbPath: path.join(dir, 'weft.db') });
    const fileClient = new Client({ baseUrl: fileServer.url, maxRetries: 0 });
    try {
      await fileClient.calls.start({ start: { project_id: project, id: 'f1', op_name: 'STRAẞE', started_at: at(0), inputs: {}, attributes: { 'k.1': 'true' } } });
      const query = q.expr(
        q.and(
          q.contains(q.field('op_name'), 'straße', { caseInsensitive: true }),
          q.eq(q.convert(q.field('attributes.k.1'), 'bool'), true),
        ),
      );
      const records = await fileClient.calls.streamQuery({ project_id: project, query }).toArray();
      expect(records.map((r) => r.id)).toEqual(['f1']);
    } finally {
      await fileClient.close();
      await fileServer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server options', () => {
  it('refuses a malformed price table or user list with a TypeError naming it', async () => {
    await expect(startTestServer({ prices: { m: { promptUsdPer1M: -1, completionUsdPer1M: 1 } } })).rejects.toThrow(/prices: m\.promptUsdPer1M/);
    await expect(startTestServer({ users: { u: '' } })).rejects.toThrow(TypeError);
  });
});
