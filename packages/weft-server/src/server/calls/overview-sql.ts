/**
 * The overview's aggregation in SQL, written once for both engines: trace roots of a window counted per time bucket
 * (and per root op or model), errors, latency p50 / p95, and their token usage summed per model, as SQL steps
 * (db/sql-steps.ts) run by the store's runner; each engine's few leaves are an {@link OverviewEngine}.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, type Steps } from '../db/sql-steps.js';
import { derivedSql } from './fields.js';
import { PG_LEAVES } from './pg-query-sql.js';
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

/** An engine's part of the SQL. */
interface OverviewEngine {
  /** `summary.status` of the current `calls` row (text). */
  status: string;
  /** `summary.latency_ms` of the current `calls` row (a number, NULL while running). */
  latency: string;
  /** A `FROM` item listing `(key, value)` of the usage object `summary` holds (none when it holds no object), as `u`. */
  usageEach(summary: string): string;
  /** The `p`th percentile (0-100, linear interpolation) of `column` over a group. */
  percentile(column: string, p: number): string;
}

/**
 * Each engine's part: the stream query's own status and latency SQL, `json_each` of the usage, and the percentile
 * (SQLite: `weft_percentile`, db/sql-functions.ts; PostgreSQL: `percentile_cont`).
 */
const ENGINES: Record<Dialect['engine'], OverviewEngine> = {
  sqlite: {
    status: derivedSql('summary.status', SQLITE_LEAVES),
    latency: derivedSql('summary.latency_ms', SQLITE_LEAVES),
    usageEach: (summary) => `json_each(CASE WHEN json_type(${summary}, '$.usage') = 'object' THEN json_extract(${summary}, '$.usage') END) u`,
    percentile: (column, p) => `weft_percentile(${column}, ${p})`,
  },
  postgres: {
    status: derivedSql('summary.status', PG_LEAVES),
    latency: `${derivedSql('summary.latency_ms', PG_LEAVES)}::float8`,
    usageEach: (summary) => `LATERAL json_each(CASE WHEN json_typeof(${summary} -> 'usage') = 'object' THEN ${summary} -> 'usage' END) u`,
    percentile: (column, p) => `percentile_cont(${p / 100}) WITHIN GROUP (ORDER BY ${column})`,
  },
};

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
/** The parameters of either statement: the project, the window's start and end (ISO). */
const windowOf = (q: OverviewQuery): string[] => [q.projectId, iso(q.startMs), iso(q.endMs)];

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
 * a root without usage as `(none)`).
 */
export function* overviewCalls(d: Dialect, q: OverviewQuery): Steps<OverviewCallsRow[]> {
  const e = ENGINES[d.engine];
  const whole = `SELECT b, NULL AS g, ${figures(e)} FROM r GROUP BY b UNION ALL SELECT -1, NULL, ${figures(e)} FROM r`;
  if (q.groupBy === null) return yield* all<OverviewCallsRow>(`WITH ${rootsCte(e, q, ['b', 'st', 'lat'], true)} ${whole}`, windowOf(q));
  const grouped = q.groupBy === 'op_name'
    ? 'SELECT b, op AS g0, st, lat FROM r'
    : `SELECT b, COALESCE(u.key, '${NONE}') AS g0, st, lat FROM r LEFT JOIN ${e.usageEach('r.summary')} ON true`;
  const sql = `WITH ${rootsCte(e, q, q.groupBy === 'op_name' ? ['b', 'op', 'st', 'lat'] : ['b', 'st', 'lat', 'summary'], true)},
    x AS MATERIALIZED (${grouped}),
    ranked AS (SELECT g0, count(*) AS n FROM x GROUP BY g0),
    kept AS (SELECT g0 FROM ranked ORDER BY n DESC, g0 ASC
      LIMIT (CASE WHEN (SELECT count(*) FROM ranked) > ${MAX_GROUPS} THEN ${MAX_GROUPS - 1} ELSE ${MAX_GROUPS} END)),
    y AS (SELECT b, CASE WHEN g0 IN (SELECT g0 FROM kept) THEN g0 ELSE '${OTHER}' END AS g, st, lat FROM x)
    ${whole}
    UNION ALL SELECT b, g, ${figures(e)} FROM y GROUP BY b, g
    UNION ALL SELECT -1, g, ${figures(e)} FROM y GROUP BY g`;
  return yield* all<OverviewCallsRow>(sql, windowOf(q));
}

/**
 * The statement of the usage: each model's token kinds summed per bucket (and root op, when split by op). SQLite sums
 * with `weft_usage_sum` (db/sql-functions.ts: each summary parsed once in JS), which took about 3/4 of the time of
 * SQLite's JSON functions reading each kind of token over 1,000,000 roots (one measurement, on a loaded machine).
 */
export function* overviewUsage(d: Dialect, q: OverviewQuery): Steps<OverviewUsageRow[]> {
  const e = ENGINES[d.engine];
  const op = q.groupBy === 'op_name' ? 'op' : 'NULL';
  const roots = `WITH ${rootsCte(e, q, op === 'op' ? ['b', 'op', 'summary'] : ['b', 'summary'], false)}`;
  const by = `b${op === 'op' ? ', op' : ''}`;
  if (d.engine === 'postgres') {
    const sums = USAGE_KEYS.map((k) => `sum(CASE WHEN json_typeof(u.value -> '${k}') = 'number' THEN (u.value ->> '${k}')::float8 END) AS ${k}`);
    return yield* all<OverviewUsageRow>(`${roots} SELECT b, ${op} AS op, u.key AS model, ${sums.join(', ')}
      FROM r CROSS JOIN ${e.usageEach('r.summary')} GROUP BY ${by}, u.key`, windowOf(q));
  }
  const usage: OverviewUsageRow[] = [];
  type Sums = { b: number; op: string | null; usage: string | null };
  for (const row of yield* all<Sums>(`${roots} SELECT b, ${op} AS op, weft_usage_sum(summary) AS usage FROM r GROUP BY ${by}`, windowOf(q))) {
    const byModel = JSON.parse(row.usage ?? '{}') as Record<string, Record<string, number>>;
    for (const [model, sums] of Object.entries(byModel)) {
      usage.push({ b: row.b, op: row.op, model, ...Object.fromEntries(USAGE_KEYS.map((k) => [k, sums[k] ?? null])) } as OverviewUsageRow);
    }
  }
  return usage;
}
