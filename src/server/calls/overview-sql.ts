/**
 * The overview's aggregation in SQL, written once for both engines: trace roots of a window counted per time bucket
 * (and per root op or model), errors, latency p50 / p95, and their token usage summed per model; the engine's
 * parts come from an {@link OverviewEngine} (SQLite here, PostgreSQL in pg-overview-sql.ts).
 * @module
 */
import { type Dialect, SQLITE_DIALECT } from '../db/dialect.js';
import type { Prepare } from '../db/statement-cache.js';
import { derivedSql } from './fields.js';
import { SQLITE_LEAVES } from './query-sql.js';

/** What the overview asks of a store. */
export interface OverviewQuery {
  projectId: string;
  /** Roots started in `[startMs, endMs)`, epoch ms. */
  startMs: number;
  endMs: number;
  /** Bucket edges, epoch ms (`planBuckets`): bucket i is `[edges[i], edges[i+1])`; they cover the window. */
  edges: readonly number[];
  groupBy: 'op_name' | 'model' | null;
}

/** Counts of one bucket (`b`, or -1 for the whole window) of one series (`g`: null for all roots). */
export interface OverviewCallsRow {
  b: number;
  g: string | null;
  n: number;
  e: number;
  de: number;
  p50: number | null;
  p95: number | null;
}

/** The token kinds summed per model (the names of `summary.usage`, see prices.ts). */
export const USAGE_KEYS = ['prompt_tokens', 'input_tokens', 'completion_tokens', 'output_tokens', 'requests', 'total_tokens',
  'cache_read_input_tokens', 'cache_creation_input_tokens', 'input_audio_tokens', 'output_audio_tokens'] as const;

/** The usage of one model summed over the roots of one bucket (and root op, when split by op). */
export type OverviewUsageRow = { b: number; op: string | null; model: string } & { [K in (typeof USAGE_KEYS)[number]]: number | null };

/** What the two statements answer. */
export interface OverviewRows {
  calls: OverviewCallsRow[];
  usage: OverviewUsageRow[];
}

/** An engine's part of the SQL. */
export interface OverviewEngine {
  dialect: Dialect;
  /** `summary.status` of the current `calls` row (text). */
  status: string;
  /** `summary.latency_ms` of the current `calls` row (a number, NULL while running). */
  latency: string;
  /** A `FROM` item listing `(key, value)` of the usage object `summary` holds (none when it holds no object), as `u`. */
  usageEach(summary: string): string;
  /** A number field of `u.value`, NULL when it is not a number. */
  usageNumber(key: string): string;
  /** The `p`th percentile (0-100, linear interpolation) of `column` over a group. */
  percentile(column: string, p: number): string;
}

/** Groups beyond this many (by calls) are merged as `(other)`. */
export const MAX_GROUPS = 12;
export const OTHER = '(other)';
export const NONE = '(none)';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (ms: number): string => {
  const s = new Date(ms).toISOString();
  if (!ISO.test(s)) throw new RangeError(`overview: edge out of range: ${ms}`);
  return s;
};

/** The bucket of `column` (normalized ISO text) among `edges`, as a balanced CASE: log2(buckets) comparisons a row. */
export function bucketSql(column: string, edges: readonly number[]): string {
  const pick = (lo: number, hi: number): string => {
    // buckets lo..hi; bucket i starts at edges[i]
    if (lo === hi) return String(lo);
    const mid = (lo + hi + 1) >> 1;
    return `CASE WHEN ${column} < '${iso(edges[mid]!)}' THEN ${pick(lo, mid - 1)} ELSE ${pick(mid, hi)} END`;
  };
  return `(${pick(0, Math.max(0, edges.length - 2))})`;
}

/** The roots of the window, with the columns `wanted` (of `b`, `op`, `st`, `lat`, `summary`). */
function rootsCte(e: OverviewEngine, q: OverviewQuery, wanted: readonly string[], materialized: boolean): string {
  const columns: Record<string, string> = {
    b: bucketSql('calls.started_at', q.edges), op: 'calls.op_name', st: e.status, lat: e.latency, summary: 'calls.summary',
  };
  return `r AS ${materialized ? 'MATERIALIZED ' : ''}(
    SELECT ${wanted.map((c) => `${columns[c]} AS ${c}`).join(', ')}
    FROM calls WHERE calls.project_id = ? AND calls.parent_id IS NULL AND calls.started_at >= ? AND calls.started_at < ?)`;
}

function figures(e: OverviewEngine): string {
  return `count(*) AS n, sum(CASE WHEN st = 'error' THEN 1 ELSE 0 END) AS e, sum(CASE WHEN st = 'descendant_error' THEN 1 ELSE 0 END) AS de,
    ${e.percentile('lat', 50)} AS p50, ${e.percentile('lat', 95)} AS p95`;
}

/**
 * The statement of the counts: per bucket and over the window, for all roots and, when split, per group (the
 * {@link MAX_GROUPS} with most roots, the rest as `(other)`; by model, a root counts once per model of its usage and
 * a root without usage as `(none)`). Parameters: the project, the window's start and end (ISO), then the same again
 * for a split.
 */
export function overviewCallsSql(e: OverviewEngine, q: OverviewQuery): { sql: string; params: unknown[] } {
  const window = [q.projectId, iso(q.startMs), iso(q.endMs)];
  const all = `SELECT b, NULL AS g, ${figures(e)} FROM r GROUP BY b UNION ALL SELECT -1, NULL, ${figures(e)} FROM r`;
  if (q.groupBy === null) return { sql: e.dialect.sql(`WITH ${rootsCte(e, q, ['b', 'st', 'lat'], true)} ${all}`), params: window };
  const grouped = q.groupBy === 'op_name'
    ? 'SELECT b, op AS g0, st, lat FROM r'
    : `SELECT b, COALESCE(u.key, '${NONE}') AS g0, st, lat FROM r LEFT JOIN ${e.usageEach('r.summary')} ON true`;
  const sql = `WITH ${rootsCte(e, q, q.groupBy === 'op_name' ? ['b', 'op', 'st', 'lat'] : ['b', 'st', 'lat', 'summary'], true)},
    x AS MATERIALIZED (${grouped}),
    ranked AS (SELECT g0, count(*) AS n FROM x GROUP BY g0),
    kept AS (SELECT g0 FROM ranked ORDER BY n DESC, g0 ASC
      LIMIT (CASE WHEN (SELECT count(*) FROM ranked) > ${MAX_GROUPS} THEN ${MAX_GROUPS - 1} ELSE ${MAX_GROUPS} END)),
    y AS (SELECT b, CASE WHEN g0 IN (SELECT g0 FROM kept) THEN g0 ELSE '${OTHER}' END AS g, st, lat FROM x)
    ${all}
    UNION ALL SELECT b, g, ${figures(e)} FROM y GROUP BY b, g
    UNION ALL SELECT -1, g, ${figures(e)} FROM y GROUP BY g`;
  return { sql: e.dialect.sql(sql), params: window };
}

/**
 * The statement of the usage: each model's token kinds summed per bucket (and root op, when split by op). PostgreSQL
 * runs it; SQLite sums with `weft_usage_sum` instead ({@link sqliteOverviewRows}).
 */
export function overviewUsageSql(e: OverviewEngine, q: OverviewQuery): { sql: string; params: unknown[] } {
  const op = q.groupBy === 'op_name' ? 'op' : 'NULL';
  const sums = USAGE_KEYS.map((k) => `sum(${e.usageNumber(k)}) AS ${k}`).join(', ');
  const sql = `WITH ${rootsCte(e, q, op === 'op' ? ['b', 'op', 'summary'] : ['b', 'summary'], false)}
    SELECT b, ${op} AS op, u.key AS model, ${sums} FROM r CROSS JOIN ${e.usageEach('r.summary')} GROUP BY b, ${op === 'op' ? 'op, ' : ''}u.key`;
  return { sql: e.dialect.sql(sql), params: [q.projectId, iso(q.startMs), iso(q.endMs)] };
}

/** SQLite's part: the stream query's own status and latency SQL, `json_each`, and `weft_percentile` (db/sql-functions.ts). */
export const SQLITE_OVERVIEW: OverviewEngine = {
  dialect: SQLITE_DIALECT,
  status: derivedSql('summary.status', SQLITE_LEAVES),
  latency: derivedSql('summary.latency_ms', SQLITE_LEAVES),
  usageEach: (summary) => `json_each(CASE WHEN json_type(${summary}, '$.usage') = 'object' THEN json_extract(${summary}, '$.usage') END) u`,
  usageNumber: (key) => `(CASE WHEN json_type(u.value, '$.${key}') IN ('integer', 'real') THEN json_extract(u.value, '$.${key}') END)`,
  percentile: (column, p) => `weft_percentile(${column}, ${p})`,
};

/**
 * Runs the overview's two statements on SQLite (synchronously, on the store's connection). The usage is summed by
 * `weft_usage_sum` (db/sql-functions.ts: each summary parsed once in JS), which took about 3/4 of the time of
 * SQLite's JSON functions reading each kind of token over 1,000,000 roots (one measurement, on a loaded machine).
 */
export function sqliteOverviewRows(prepare: Prepare, q: OverviewQuery): OverviewRows {
  const calls = overviewCallsSql(SQLITE_OVERVIEW, q);
  const op = q.groupBy === 'op_name';
  const usageSql = `WITH ${rootsCte(SQLITE_OVERVIEW, q, op ? ['b', 'op', 'summary'] : ['b', 'summary'], false)}
    SELECT b, ${op ? 'op' : 'NULL'} AS op, weft_usage_sum(summary) AS usage FROM r GROUP BY b${op ? ', op' : ''}`;
  const usage: OverviewUsageRow[] = [];
  for (const row of prepare(usageSql).all(q.projectId, iso(q.startMs), iso(q.endMs)) as { b: number; op: string | null; usage: string | null }[]) {
    const byModel = JSON.parse(row.usage ?? '{}') as Record<string, Record<string, number>>;
    for (const [model, sums] of Object.entries(byModel)) {
      usage.push({ b: row.b, op: row.op, model, ...Object.fromEntries(USAGE_KEYS.map((k) => [k, sums[k] ?? null])) } as OverviewUsageRow);
    }
  }
  return { calls: prepare(calls.sql).all(...calls.params) as OverviewCallsRow[], usage };
}
