// PostgreSQL query plans of the reads a big project's viewer and API make (issue 40, point 2): a project of 200,000
// calls (traces of 10, one of 10,000 calls, 2% errors, 30 days, ids in the UUID layout) beside a smaller one, and
// feedback in 8 projects, seeded in SQL and ANALYZEd; then `EXPLAIN (FORMAT JSON)` of the exact statement each read
// runs, taken from the store's own SQL builders (and planned as the stream-query cursor plans it: `DECLARE ... CURSOR`
// with the compiled `cursor_tuple_fraction`): a first page newest first is a Limit over an index scan (no sort of the
// project's calls, no sequential scan), a trace reads the trace index only, a call by id the key only, the feedback
// stats and the overview an index; the rollup job's slices of an hour and the overview's bound on live counting a range
// of a roots index each, bounded by their keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CallsQueryReq } from 'weft-trace/schema';
import { FeedbackStatsReq } from 'weft-trace/schema';
import { compilePgCallsQuery } from '../../../src/server/calls/query/pg-query-sql.js';
import { rootFigures, type RootsQuery } from '../../../src/server/calls/overview/overview-sql.js';
import { hourSlice } from '../../../src/server/calls/overview/rollup-refresh.js';
import { liveCut } from '../../../src/server/calls/overview/overview-live-bound.js';
import { PG_DIALECT, pgSql } from '../../../src/server/db/dialect.js';
import type { Step, Steps } from '../../../src/server/db/sql-steps.js';
import { feedbackStats } from '../../../src/server/feedback/stats-query.js';
import { planBuckets } from '../../../src/server/stats/stats-buckets.js';
import { openPgDatabase } from '../../../src/server/db/pg-database.js';
import { freshPgDatabase, type FreshDatabase } from 'weft-test-kit/pg.js';

const PROJECT = 'plans/big';
const CALLS = 200_000;
const TRACE_SIZE = 10;
// ids in the UUID layout the SDKs write: a filter matches each in both its forms (schema/ids.ts `idForms`), two values
const uuid = (prefix: string, n: string): string => `'${prefix}-0000-7000-8000-' || lpad(to_hex(${n}), 12, '0')`;
const BIG_TRACE = '0000000b-0000-7000-8000-000000000000';
const A_CALL = '0000000c-0000-7000-8000-00000001e240';
const T0 = Date.parse('2026-10-01T00:00:00Z');
const DAYS = 30;
const NOW = new Date(T0 + DAYS * 86_400_000);

/** A plan node of `EXPLAIN (FORMAT JSON)`. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const iso = (expr: string): string => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Seeds the project (and a smaller neighbour, so `project_id` selects): traces of 10 calls, 7 ops, 2% errors, 30 days. */
const SEED = `
  INSERT INTO calls (project_id, id, op_name, trace_id, parent_id, started_at, ended_at, attributes, inputs, output, exception, summary)
  SELECT p, ${uuid('0000000c', 'i')}, CASE WHEN i % ${TRACE_SIZE} = 0 THEN 'agent_' || (i / ${TRACE_SIZE}) % 3 ELSE 'step_' || i % 7 END,
    ${uuid('0000000a', `i / ${TRACE_SIZE}`)}, CASE WHEN i % ${TRACE_SIZE} = 0 THEN NULL ELSE ${uuid('0000000c', `i - i % ${TRACE_SIZE}`)} END,
    ${iso(`to_timestamp(${T0 / 1000}) + (i::float8 * ${DAYS * 86_400} / n) * interval '1 second'`)},
    ${iso(`to_timestamp(${T0 / 1000}) + (i::float8 * ${DAYS * 86_400} / n + 0.2) * interval '1 second'`)},
    '{}', json_build_object('q', i), '"ok"', CASE WHEN i % 50 = 7 OR i % 500 = 0 THEN '{"type":"ValueError"}'::json END,
    json_build_object('status_counts', json_build_object('success', 1, 'error', 0), 'usage', json_build_object('gpt-4o', json_build_object('total_tokens', i % 100)))
  FROM (VALUES ('${PROJECT}', ${CALLS}), ('plans/other', ${CALLS / 5})) AS projects(p, n), generate_series(0, n - 1) AS i;
  INSERT INTO calls (project_id, id, op_name, trace_id, parent_id, started_at, ended_at, attributes, inputs, output, summary)
  SELECT '${PROJECT}', ${uuid('0000000d', 'i')}, 'tool', '${BIG_TRACE}', CASE WHEN i = 0 THEN NULL ELSE ${uuid('0000000d', '0')} END,
    ${iso(`to_timestamp(${T0 / 1000 + 86_400}) + i * interval '1 millisecond'`)}, ${iso(`to_timestamp(${T0 / 1000 + 86_400}) + i * interval '1 millisecond'`)},
    '{}', '{}', '"ok"', '{"status_counts":{"success":1,"error":0},"usage":{}}'
  FROM generate_series(0, 9999) AS i;
  INSERT INTO feedback (project_id, id, feedback_type, svc_ref, call_id, payload, created_at)
  SELECT p, 'f' || i, 'score', 'svc', ${uuid('0000000c', 'i * 5')}, jsonb_build_object('score', i % 10),
    ${iso(`to_timestamp(${T0 / 1000}) + (i::float8 * ${DAYS * 86_400} / 20000) * interval '1 second'`)}
  FROM (SELECT unnest(ARRAY['${PROJECT}', 'plans/f1', 'plans/f2', 'plans/f3', 'plans/f4', 'plans/f5', 'plans/f6', 'plans/f7']) AS p) AS projects,
    generate_series(0, 19999) AS i;
  ANALYZE calls;
  ANALYZE feedback;`;

let database: FreshDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await freshPgDatabase('plans');
  // the server's own migrations (the test database is a copy of a migrated template; opening applies any newer one)
  await (await openPgDatabase(database.url)).close();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(SEED);
}, 60_000);

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** The plan of `sql` as the stream-query cursor runs it (`DECLARE ... CURSOR`, planned for a first page: pg-call-cursor.ts). */
async function planOf(sql: string, params: readonly unknown[], cursor: boolean, tupleFraction?: number): Promise<PlanNode> {
  await client.query('BEGIN');
  try {
    if (tupleFraction !== undefined) await client.query(`SET LOCAL cursor_tuple_fraction = ${tupleFraction}`);
    const text = `EXPLAIN (FORMAT JSON) ${cursor ? 'DECLARE weft_calls NO SCROLL CURSOR FOR ' : ''}${sql}`;
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(text, [...params]);
    return rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('ROLLBACK');
  }
}

/** The plan of a `/calls/stream_query` body: the SQL of `compilePgCallsQuery`, run as the store's cursor runs it. */
function queryPlan(body: Record<string, unknown>): Promise<PlanNode> {
  const compiled = compilePgCallsQuery(CallsQueryReq.parse({ project_id: PROJECT, ...body }));
  return planOf(compiled.sql, compiled.params, true, compiled.tupleFraction);
}

/** The first statement a store method yields, as the PostgreSQL runner sends it. */
function firstStep(steps: Steps<unknown>): { sql: string; params: readonly unknown[] } {
  const step = steps.next().value as Step;
  if (step.kind === 'insert') throw new Error('expected a read');
  return { sql: pgSql(step.sql), params: step.params };
}

/** Every node of a plan, depth first. */
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

const describeNode = (n: PlanNode): string => `${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`;
const shape = (plan: PlanNode): string[] => nodes(plan).map(describeNode);
const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan']);

/**
 * A first page newest first: the plan's top is a Limit over an index scan of `calls` (`index`), directly or through an
 * Incremental Sort that only orders the rows of one `started_at` by `id` (its input already in `started_at` order: the
 * index's order); no full Sort anywhere, no sequential or bitmap scan of `calls`.
 */
function expectFirstPage(plan: PlanNode, index: string): void {
  const all = shape(plan).join(' > ');
  expect(plan['Node Type'], all).toBe('Limit');
  let scan = plan.Plans?.[0];
  if (scan?.['Node Type'] === 'Incremental Sort') scan = scan.Plans?.[0];
  expect(scan && INDEX_SCANS.has(scan['Node Type']) ? describeNode(scan) : all, all).toBe(`${scan?.['Node Type']} on calls using ${index}`);
  expect(shape(plan).filter((n) => /^Sort|Seq Scan on calls|Bitmap Heap Scan on calls/.test(n)), all).toEqual([]);
}

const NEWEST = [{ field: 'started_at', direction: 'desc' }];

describe('PostgreSQL plans of the reads of a big project', () => {
  it('calls list, first page newest first: unfiltered, by op name, by status', async () => {
    expectFirstPage(await queryPlan({ sort_by: NEWEST, limit: 50 }), 'calls_started_at');
    expectFirstPage(await queryPlan({ filter: { op_names: ['step_3'] }, sort_by: NEWEST, limit: 50 }), 'calls_op_name');
    const errors = { query: { $expr: { $eq: [{ $getField: 'summary.status' }, { $literal: 'error' }] } } };
    expectFirstPage(await queryPlan({ ...errors, sort_by: NEWEST, limit: 50 }), 'calls_started_at');
  });

  it("the viewer's traces list: roots only, newest first, with feedback and costs, unfiltered and by status", async () => {
    const roots = { filter: { trace_roots_only: true }, sort_by: NEWEST, limit: 50, include_feedback: true, include_costs: true };
    expectFirstPage(await queryPlan(roots), 'calls_roots_desc');
    const errors = { query: { $expr: { $and: [{ $eq: [{ $getField: 'summary.status' }, { $literal: 'error' }] }] } } };
    expectFirstPage(await queryPlan({ ...roots, ...errors }), 'calls_roots_desc');
  });

  it('a 10,000-call trace reads the trace index, a call by id the key: no other index, no sequential scan', async () => {
    // an id is matched in both its forms (= ANY of two values): the sort is of the trace's rows, which the index found
    const onlyIndex = (plan: string[], index: string): void => {
      const scans = plan.filter((n) => / using /.test(n) || /Seq Scan/.test(n));
      expect(scans.length, plan.join(' > ')).toBeGreaterThan(0);
      expect(scans.filter((n) => !n.endsWith(` using ${index}`)), plan.join(' > ')).toEqual([]);
    };
    onlyIndex(shape(await queryPlan({ filter: { trace_ids: [BIG_TRACE] }, sort_by: [{ field: 'started_at', direction: 'asc' }] })), 'calls_trace');
    onlyIndex(shape(await queryPlan({ filter: { call_ids: [A_CALL] }, limit: 1 })), 'calls_pkey');
  });

  it('feedback stats over 30 days and the overview read an index range, no sequential scan', async () => {
    const start = new Date(NOW.getTime() - DAYS * 86_400_000).toISOString();
    const stats = FeedbackStatsReq.parse({ project_id: PROJECT, start, end: NOW.toISOString(), metrics: [{ json_path: 'score', value_type: 'numeric' }] });
    const statsSql = firstStep(feedbackStats(PG_DIALECT, stats, NOW, false));
    const statsPlan = shape(await planOf(statsSql.sql, statsSql.params, false));
    expect(statsPlan.filter((n) => /Seq Scan/.test(n)), statsPlan.join(' > ')).toEqual([]);
    expect(statsPlan.some((n) => /Index Scan using feedback_/.test(n)), statsPlan.join(' > ')).toBe(true);
    const startMs = NOW.getTime() - DAYS * 86_400_000;
    // the live part of the overview (what the hour rollups do not hold), here over the whole window
    const q: RootsQuery = { projectId: PROJECT, ranges: [[startMs, NOW.getTime()]], edges: planBuckets(startMs, NOW.getTime(), undefined, 'UTC').edges, withModels: false };
    const overviewSql = firstStep(rootFigures(PG_DIALECT, q));
    const overview = shape(await planOf(overviewSql.sql, overviewSql.params, false));
    expect(overview.filter((n) => /Seq Scan on calls/.test(n)), overview.join(' > ')).toEqual([]);
    expect(overview.some((n) => /Index.* on calls using calls_(roots_desc|parent)/.test(n)), overview.join(' > ')).toBe(true);
  });
  it("the rollup job's slice of an hour and the overview's bound on stale hours read a bounded range of a roots index", async () => {
    const hour = new Date(T0 + 86_400_000 * 3).toISOString().slice(0, 13);
    const after = [`${hour}:10:00.000Z`, '0000000c-0000-7000-8000-000000000000'] as const;
    // the slice's end (a Limit over the index in key order), then its counts over the keys (after, through]
    const slice = hourSlice(PG_DIALECT, PROJECT, hour, after, 1000);
    const probe = slice.next().value as Step & { sql: string; params: unknown[] };
    const probePlan = await planOf(pgSql(probe.sql), probe.params, false);
    const probeShape = shape(probePlan);
    expect(probePlan['Node Type'], probeShape.join(' > ')).toBe('Limit');
    expect(probeShape.filter((n) => /^Sort|Seq Scan|Bitmap/.test(n)), probeShape.join(' > ')).toEqual([]);
    expect(probeShape.some((n) => /Index.* on calls using calls_(roots_desc|parent)/.test(n)), probeShape.join(' > ')).toBe(true);
    const counts = slice.next({ started_at: `${hour}:20:00.000Z`, id: 'x' }).value as Step & { sql: string; params: unknown[] };
    const countsShape = shape(await planOf(pgSql(counts.sql), counts.params, false));
    expect(countsShape.filter((n) => /Seq Scan on calls/.test(n)), countsShape.join(' > ')).toEqual([]);
    expect(countsShape.some((n) => /Index.* on calls using calls_(roots_desc|parent)/.test(n)), countsShape.join(' > ')).toBe(true);
    // the bound: a count under LIMIT, then the newest root past it
    const startMs = T0 + 86_400_000;
    const cut = liveCut(PG_DIALECT, PROJECT, [[startMs, startMs + 10 * 3_600_000]], 100);
    const count = cut.next().value as Step & { sql: string; params: unknown[] };
    const offset = cut.next({ n: 101 }).value as Step & { sql: string; params: unknown[] };
    for (const step of [count, offset]) {
      const plan = shape(await planOf(pgSql(step.sql), step.params, false));
      expect(plan.filter((n) => /^Sort|Seq Scan|Bitmap/.test(n)), plan.join(' > ')).toEqual([]);
      expect(plan.some((n) => /Index.* on calls using calls_(roots_desc|parent)/.test(n)), plan.join(' > ')).toBe(true);
    }
  });
});
