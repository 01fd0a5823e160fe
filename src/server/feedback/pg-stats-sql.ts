/**
 * The PostgreSQL SQL of feedback stats: one grouped scan of the window assigns each row to its bucket
 * (`width_bucket` over the bucket edges), aggregates every metric per bucket, and computes percentiles in SQL with
 * the SQLite store's definition, so both stores give the same numbers.
 * @module
 */
import type { MetricValueType } from '../../schema/feedback.js';
import { readableJson } from '../db/pg-json.js';
import { all, type Steps } from '../db/sql-steps.js';
import type { PartialStats } from './stats-aggregate.js';
import type { BucketScan, ScannedStats, StatsMetric, StatsQuery, StatsWindow } from './stats-sql.js';

/** A bound parameter list; `bind` appends a value and returns its placeholder (`$n`). */
class Params {
  readonly values: unknown[] = [];
  bind(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/**
 * The steps of a stats `json_path`, read as the SQLite store reads it (`sqlJsonPath`): `.` separates keys; a
 * key may end in array indexes (`choices[0]`, `m[1][2]`).
 */
export function pathSteps(jsonPath: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const seg of jsonPath.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(seg);
    if (!m) {
      steps.push(seg);
      continue;
    }
    if (m[1]) steps.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) steps.push(Number(idx[1]));
  }
  return steps;
}

/** Largest index `jsonb -> int` takes; a larger one finds nothing, as in SQLite. */
const MAX_INDEX = 2 ** 31 - 1;

/** `pl -> $k::text -> $i::int ...` (`jsonb`): an integer step indexes arrays only (NULL on an object), a key objects only. */
function valueAt(steps: readonly (string | number)[], params: Params): string {
  let sql = 'pl';
  for (const step of steps) {
    if (typeof step === 'number' && step > MAX_INDEX) return 'NULL::jsonb';
    sql = `(${sql} -> ${typeof step === 'number' ? params.bind(step, '::int') : params.bind(step, '::text')})`;
  }
  return sql;
}

/**
 * The SQL value of a metric in a row (float8), NULL when absent or of another type, as in the SQLite store:
 * numeric → JSON numbers only; boolean → true 1, false 0; categorical → 0 for any non-null value (only counted).
 */
function valueSql(type: MetricValueType, x: string): string {
  if (type === 'numeric') return `CASE WHEN jsonb_typeof(${x}) = 'number' THEN (${x})::float8 END`;
  if (type === 'boolean') return `CASE jsonb_typeof(${x}) WHEN 'boolean' THEN CASE WHEN ${x} = 'true'::jsonb THEN 1::float8 ELSE 0::float8 END END`;
  return `CASE WHEN jsonb_typeof(${x}) <> 'null' THEN 0::float8 END`;
}

/**
 * Percentiles `$P` of the sorted array `a`, in SQL, with the SQLite store's definition and arithmetic
 * (`percentileOf`: rank `h = ((n - 1) * p) / 100`, `below + (h - lo) * (next - below)` in float8, so the same
 * IEEE operations in the same order give the same bits). NULL elements when `a` is NULL (no values).
 */
function percentilesSql(a: string, pcts: string): string {
  return `(SELECT array_agg(CASE WHEN f + 1 >= n THEN ${a}[f::int + 1]
      ELSE ${a}[f::int + 1] + (h - f) * (${a}[f::int + 2] - ${a}[f::int + 1]) END ORDER BY k)
    FROM unnest(${pcts}) WITH ORDINALITY AS q(p, k)
    CROSS JOIN LATERAL (SELECT cardinality(${a}) AS n) nn
    CROSS JOIN LATERAL (SELECT ((n - 1)::float8 * q.p) / 100 AS h) hh
    CROSS JOIN LATERAL (SELECT floor(h) AS f) ff)`;
}

/** One result row of the stats scan. */
interface PgStatsRow {
  /** Bucket index (0-based), or null for the window row (only present with percentiles). */
  b: number | null;
  /** Rows in the bucket. */
  n: number;
  /** Per metric: `c<j>`, `s<j>`, `lo<j>`, `hi<j>` (count, sum, min, max) and `p<j>` (percentiles, in request order). */
  [column: string]: number | null | (number | null)[];
}

/** The scan of one request: SQL text and parameters. */
interface PgStatsScan {
  sql: string;
  params: unknown[];
  /** True when the result holds a window row (`b` null) with the window's percentiles. */
  windowRow: boolean;
}

/**
 * Builds the stats scan of a request over `[start, end)` whose bucket `i` starts at `innerEdges[i - 1]`
 * (ISO 8601 UTC; the first bucket starts at `start`). Filters as in the SQLite store: project, `created_at` range
 * (index `feedback_created`, or `feedback_type_created` with a type), `feedback_type`, `trigger_ref` exact or,
 * ending in `:*`, prefix. Sums add the values in `(created_at, seq)` order, the SQLite store's scan order, with its
 * summation (`weft_kbn_sum` of PG migration 2 where SQLite uses SQL `sum()`).
 * Only buckets holding rows are answered.
 */
/*
 * The payload (`json`, its text as sent) is parsed once per row into `pl`, a jsonb (`OFFSET 0` keeps the lateral
 * subquery from being inlined into each metric's expressions, which would parse it once per use), and every metric
 * reads `pl` with the binary jsonb operators.
 */
function pgStatsScan(query: StatsQuery, metrics: readonly StatsMetric[], start: string, end: string, innerEdges: readonly string[]): PgStatsScan {
  const params = new Params();
  const where = [`project_id = ${params.bind(query.project_id)}`, `created_at >= ${params.bind(start)}`, `created_at < ${params.bind(end)}`];
  if (query.feedback_type != null) where.push(`feedback_type = ${params.bind(query.feedback_type)}`);
  const trigger = query.trigger_ref;
  if (trigger != null && trigger.endsWith(':*')) {
    where.push(`left(trigger_ref, ${params.bind(trigger.length - 1, '::int')}) = ${params.bind(trigger.slice(0, -1))}`);
  } else if (trigger != null) {
    where.push(`trigger_ref = ${params.bind(trigger)}`);
  }
  const bucket = `width_bucket(created_at, ${params.bind(innerEdges, '::text[]')})`;
  const columns = metrics.map((m, j) => `${valueSql(m.valueType, valueAt(pathSteps(m.jsonPath), params))} AS v${j}`);
  const aggregates = metrics.flatMap((m, j) => {
    const v = `v${j}`;
    // The SQLite store sums a metric with percentiles in JavaScript (plain addition) and others with SQL's sum()
    // (Kahan-Babuska-Neumaier): the same additions, in its scan order, give the same bits here. The rows reach the
    // aggregates in that order from the sorted subquery (one sort for all metrics, where an ORDER BY inside each
    // aggregate would sort once per aggregate: 8x slower on 100,000 rows). A subquery with ORDER BY is not flattened,
    // and weft_kbn_sum has no combine function, so no parallel partial aggregation can reorder the rows.
    const sum = m.percentiles.length > 0 ? 'sum' : 'weft_kbn_sum';
    const out = [`count(${v})::int AS c${j}`, `${sum}(${v}) AS s${j}`, `min(${v}) AS lo${j}`, `max(${v}) AS hi${j}`];
    if (m.percentiles.length > 0) out.push(`array_agg(${v} ORDER BY ${v}) FILTER (WHERE ${v} IS NOT NULL) AS a${j}`);
    return out;
  });
  const windowRow = metrics.some((m) => m.percentiles.length > 0);
  const grouped = `SELECT CASE WHEN grouping(b) = 0 THEN b END AS b, count(*)::int AS n${aggregates.map((a) => `, ${a}`).join('')}
    FROM (SELECT ${bucket} AS b, created_at, seq${columns.map((c) => `, ${c}`).join('')} FROM feedback CROSS JOIN LATERAL (SELECT ${readableJson('payload')}::jsonb AS pl OFFSET 0) r WHERE ${where.join(' AND ')}
      ORDER BY 1, created_at, seq) f
    GROUP BY ${windowRow ? 'GROUPING SETS ((b), ())' : 'b'}`;
  const outer = metrics.flatMap((m, j) => {
    const keep = [`c${j}`, `s${j}`, `lo${j}`, `hi${j}`];
    if (m.percentiles.length > 0) keep.push(`${percentilesSql(`a${j}`, params.bind(m.percentiles, '::float8[]'))} AS p${j}`);
    return keep;
  });
  const sql = `SELECT b, n${outer.map((c) => `, ${c}`).join('')} FROM (${grouped}) g`;
  return { sql, params: params.values, windowRow };
}

/**
 * The PostgreSQL scan of a stats request (see {@link pgStatsScan}): one statement (`$n` placeholders), its rows read
 * into each bucket's partials and percentiles and the window's percentiles.
 */
export function* pgStatsScans(query: StatsQuery, metrics: readonly StatsMetric[], { start, end, plan }: StatsWindow): Steps<ScannedStats> {
  const scan = pgStatsScan(query, metrics, start, end, plan.edges.slice(1, -1).map((ms) => new Date(ms).toISOString()));
  const pcts = (row: PgStatsRow | undefined, j: number): (number | null)[] =>
    (row?.[`p${j}`] as (number | null)[] | undefined) ?? metrics[j]!.percentiles.map(() => null);
  const buckets: (BucketScan | undefined)[] = [];
  let window: PgStatsRow | undefined;
  for (const row of yield* all<PgStatsRow>(scan.sql, scan.params)) {
    if (row.b === null) {
      window = row;
      continue;
    }
    const parts = metrics.map((_, j): PartialStats => ({ count: row[`c${j}`] as number, sum: row[`s${j}`] as number | null, min: row[`lo${j}`] as number | null, max: row[`hi${j}`] as number | null }));
    buckets[row.b] = { count: row.n, parts, percentiles: metrics.map((_, j) => pcts(row, j)) };
  }
  return { buckets, window: metrics.map((_, j) => pcts(window, j)) };
}
