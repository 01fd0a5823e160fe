/**
 * The SQL of feedback stats, one scan shape for both engines: a subquery reads each filtered row's metric values from
 * the payload by type, an outer query aggregates them per bucket (on SQLite each metric's count, sum, min and max, or,
 * for a metric with percentiles, its values as a JSON array; on PostgreSQL every metric's values as a JSON array).
 * The engines' leaves: how a value is read (SQLite's JSONB functions, PostgreSQL's jsonb operators) and how rows reach
 * buckets (SQLite runs the scan once per bucket, an indexed range scan; PostgreSQL once, grouped by `width_bucket`
 * over the bucket edges).
 * @module
 */
import type { z } from 'zod';
import { DEFAULT_AGGREGATIONS, metricSlug, type FeedbackStatsReq, type MetricValueType } from 'weft-trace/wire';
import { newParams, type Params } from '../db/sql-params.js';
import type { Dialect } from '../db/dialect.js';
import { readableJson } from '../db/pg-json.js';
import { all, get, type Steps } from '../db/sql-steps.js';
import type { MetricAggregations } from '../stats/stats-aggregate.js';
import type { BucketPlan } from '../stats/stats-buckets.js';

/** A validated stats request (zod output of `FeedbackStatsReq`). */
export type StatsQuery = z.output<typeof FeedbackStatsReq>;

/** One requested metric, resolved. */
export interface StatsMetric extends MetricAggregations {
  slug: string;
  /** The request's `json_path` as keys and array indexes: `items[0].ok` → `['items', 0, 'ok']`. */
  steps: (string | number)[];
  valueType: MetricValueType;
}

/** The request's metrics with their slug, path steps and aggregations (the type's defaults when omitted). */
export function metricsOf(query: StatsQuery): StatsMetric[] {
  return (query.metrics ?? []).map((m) => ({
    slug: metricSlug(m.json_path),
    // a valid json_path (`FeedbackMetricSpec`) is keys joined by `.`, each followed by any `[<digits>]`
    steps: m.json_path.split('.').flatMap((seg) => seg.split('[').map((s, k) => (k === 0 ? s : Number(s.slice(0, -1))))),
    valueType: m.value_type,
    aggregations: m.aggregations ?? DEFAULT_AGGREGATIONS[m.value_type],
    percentiles: m.percentiles ?? [],
  }));
}

/** The window of a stats request: `start` and `end` (normalized ISO 8601 UTC) and its bucket plan. */
export interface StatsWindow {
  start: string;
  end: string;
  plan: BucketPlan;
}

/**
 * A bucket's row of the scan: its index `b` (0-based), its rows `n`, and per metric `j` its count `c<j>`, sum `s<j>`,
 * min `lo<j>` and max `hi<j>` or, with percentiles, `l<j>`: the JSON array of its values, in scan order (null for none;
 * from rollups, stats-rollups.ts: the values themselves, beside the count, exact sum, min and max).
 */
export type StatsRow = { b: number; n: number } & Record<string, number | string | Float64Array | null>;

/** Largest index `jsonb -> int` takes; a path with a larger one reads nothing on either engine. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * The SQL value of a metric in a row, NULL when absent or of another type: numeric → JSON numbers only; boolean → true
 * 1, false 0; categorical → 0 for any non-null value (only counted). SQLite reads the JSONB `payload` at a JSON path (a
 * numeric metric with percentiles as the JSON text of any value, of which {@link listSql} keeps the numbers: their text
 * as stored, no digit lost to a conversion); PostgreSQL reads `pl` (the payload as jsonb) a step at a time: an integer
 * step indexes arrays only, a key objects only.
 */
function valueSql(d: Dialect, m: StatsMetric, params: Params): string {
  if (m.steps.some((s) => typeof s === 'number' && s > MAX_INDEX)) return d.typed('NULL', 'float8');
  if (d.engine === 'postgres') {
    const x = m.steps.reduce<string>((sql, s) => `(${sql} -> ${params.bind(s)}::${typeof s === 'number' ? 'int' : 'text'})`, 'pl');
    if (m.valueType === 'numeric') return `CASE WHEN jsonb_typeof(${x}) = 'number' THEN (${x})::float8 END`;
    if (m.valueType === 'boolean') return `CASE ${x} WHEN 'true'::jsonb THEN 1::float8 WHEN 'false'::jsonb THEN 0::float8 END`;
    return `CASE WHEN jsonb_typeof(${x}) <> 'null' THEN 0::float8 END`;
  }
  const path = '$' + m.steps.map((s) => (typeof s === 'number' ? `[${s}]` : `."${s}"`)).join('');
  const p = (): string => params.bind(path); // bound at each use: SQLite's `?` are positional
  if (m.valueType === 'boolean') return `CASE json_type(payload, ${p()}) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END`;
  if (m.valueType !== 'numeric') return `CASE WHEN json_type(payload, ${p()}) <> 'null' THEN 0 END`;
  return m.percentiles.length > 0 ? `payload -> ${p()}` : `CASE WHEN json_type(payload, ${p()}) IN ('integer', 'real') THEN payload ->> ${p()} END`;
}

/** The aggregate of a metric's values `v` as a JSON array (NULL for none): on SQLite, of the JSON numbers among them. */
function listSql(d: Dialect, v: string): string {
  return d.engine === 'postgres' ? `json_agg(${v}) FILTER (WHERE ${v} IS NOT NULL)` : `'[' || group_concat(${v}) FILTER (WHERE ${v} GLOB '[-0-9]*') || ']'`;
}

/** The time range `[lo, hi)` (ISO 8601 UTC) of bucket `i`: its edges, clipped to the window's `start` and `end`. */
function bucketRange(plan: BucketPlan, i: number, start: string, end: string): [string, string] {
  const lo = i === 0 ? start : new Date(plan.edges[i]!).toISOString();
  const hi = i + 2 === plan.edges.length ? end : new Date(plan.edges[i + 1]!).toISOString();
  return [lo, hi];
}

/**
 * The rows of the buckets holding rows of a stats request over `[start, end)` (see {@link StatsRow}). Filters:
 * project, `created_at` in range (index `feedback_created`, or `feedback_type_created` with a type), `feedback_type`
 * exact, `trigger_ref` exact or, ending in `:*`, prefix. Each value is read from the payload once per row (SQLite:
 * `LIMIT -1` keeps the subquery a co-routine writing no temporary table; PostgreSQL: `OFFSET 0` keeps the payload
 * parsed once per row into `pl`). Values are aggregated in the SQLite scan's order, `(created_at, seq)` on PostgreSQL,
 * sums with SQLite's `sum()` (Kahan-Babuska-Neumaier), on PostgreSQL by `partialOf(list, true)` in stats-query.ts, so both
 * give the same bits.
 */
/*
 * PostgreSQL's rows reach the aggregates in that order from the sorted subquery (one sort for all metrics; an ORDER BY
 * inside each aggregate sorted once per aggregate, 8x slower on 100,000 rows): a subquery with ORDER BY is not
 * flattened, and json_agg has no combine function, so no parallel aggregation reorders them. The per-row PL/pgSQL
 * `weft_kbn_sum` (migration 2) it used before cost about a second per million rows; it stays in the schema, unused.
 */
export function* statsRows(d: Dialect, query: StatsQuery, metrics: readonly StatsMetric[], window: StatsWindow, skip: ReadonlySet<number> = new Set()): Steps<StatsRow[]> {
  const { plan } = window;
  // the buckets in `skip` are answered otherwise (stats-rollups.ts): the scan reads from the first other bucket to the last
  const read = Array.from({ length: plan.edges.length - 1 }, (_, i) => i).filter((i) => !skip.has(i));
  if (read.length === 0) return [];
  const start = bucketRange(plan, read[0]!, window.start, window.end)[0];
  const end = bucketRange(plan, read.at(-1)!, window.start, window.end)[1];
  const pg = d.engine === 'postgres';
  // bound in the order of the SQL text (the bucket, the columns, the filters): SQLite's `?` are positional
  const params = newParams(pg);
  const { values } = params;
  const edges = plan.edges.slice(1, -1).map((ms) => new Date(ms).toISOString());
  const columns = pg ? [`width_bucket(created_at, ${params.bind(edges)}::text[]) AS b`, 'created_at', 'seq'] : [];
  columns.push(...metrics.map((m, j) => `${valueSql(d, m, params)} AS v${j}`));
  const where = [`project_id = ${params.bind(query.project_id)}`];
  const range = values.length; // where SQLite binds each bucket's range
  where.push(`created_at >= ${params.bind(start)}`, `created_at < ${params.bind(end)}`);
  if (query.feedback_type != null) where.push(`feedback_type = ${params.bind(query.feedback_type)}`);
  const trigger = query.trigger_ref;
  if (trigger?.endsWith(':*')) {
    where.push(`substr(trigger_ref, 1, ${d.typed(params.bind(trigger.length - 1), 'int')}) = ${params.bind(trigger.slice(0, -1))}`);
  } else if (trigger != null) where.push(`trigger_ref = ${params.bind(trigger)}`);
  // PostgreSQL answers every metric's values as a list (stats-query.ts sums them as SQLite's sum() does): one JSON
  // aggregate per metric costs less than count, min, max and a PL/pgSQL compensated sum called per row
  const aggregates = metrics.map((m, j) => (pg || m.percentiles.length > 0
    ? `, ${listSql(d, `v${j}`)} AS l${j}`
    : `, count(v${j}) AS c${j}, sum(v${j}) AS s${j}, min(v${j}) AS lo${j}, max(v${j}) AS hi${j}`));
  const filters = where.join(' AND ');
  // PostgreSQL parses each row's payload once, into `pl`, in a subquery that OFFSET 0 keeps from being flattened
  const filtered = pg
    ? `FROM (SELECT created_at, seq${metrics.length > 0 ? `, ${readableJson('payload')}::jsonb AS pl` : ''} FROM feedback WHERE ${filters} OFFSET 0) r`
    : `FROM feedback WHERE ${filters}`;
  // without metrics, SQLite counts from the index alone
  const sql = !pg && metrics.length === 0 ? `SELECT count(*) AS n ${filtered}`
    : `SELECT ${pg ? 'b, ' : ''}count(*) AS n${aggregates.join('')} FROM (SELECT ${columns.join(', ')} ${filtered}
      ${pg ? 'ORDER BY 1, created_at, seq) f GROUP BY b' : 'LIMIT -1)'}`;
  if (pg) return (yield* all<StatsRow>(sql, values)).filter((r) => !skip.has(r.b));
  const rows: StatsRow[] = [];
  for (const b of read) {
    values.splice(range, 2, ...bucketRange(plan, b, window.start, window.end));
    const row = (yield* get<StatsRow>(sql, [...values]))!;
    if (row.n > 0) rows.push({ ...row, b });
  }
  return rows;
}
