/**
 * The SQLite SQL of feedback stats: per bucket, one indexed scan giving each metric's count, sum, min and max
 * (values read from the JSONB payload by type) and the values of the metrics with percentiles, whose percentiles are
 * computed here; and what both engines' scans share (the request's metrics, the scan's result).
 * @module
 */
import type { z } from 'zod';
import { DEFAULT_AGGREGATIONS, metricSlug, type FeedbackStatsReq, type MetricValueType } from '../../schema/feedback.js';
import { get, type Steps } from '../db/sql-steps.js';
import { partialOf, percentileOf, type MetricAggregations, type PartialStats } from './stats-aggregate.js';
import type { BucketPlan } from './stats-buckets.js';

/** A validated stats request (zod output of `FeedbackStatsReq`). */
export type StatsQuery = z.output<typeof FeedbackStatsReq>;

/** One requested metric, resolved. */
export interface StatsMetric extends MetricAggregations {
  slug: string;
  /** The request's `json_path`, e.g. `scores.helpfulness`. */
  jsonPath: string;
  /** SQLite JSON path, e.g. `$."scores"."helpfulness"`. */
  path: string;
  valueType: MetricValueType;
}

/** `scores.help ful[0]` → `$."scores"."help ful"[0]` (keys quoted, so any character but `"` is fine). */
export function sqlJsonPath(jsonPath: string): string {
  return '$' + jsonPath.split('.').map((seg) => seg.replace(/^([^[]+)/, '."$1"')).join('');
}

/** The request's metrics with their slug, SQL path and aggregations (the type's defaults when omitted). */
export function metricsOf(query: StatsQuery): StatsMetric[] {
  return (query.metrics ?? []).map((m) => ({
    slug: metricSlug(m.json_path),
    jsonPath: m.json_path,
    path: sqlJsonPath(m.json_path),
    valueType: m.value_type,
    aggregations: m.aggregations ?? DEFAULT_AGGREGATIONS[m.value_type],
    percentiles: m.percentiles ?? [],
  }));
}

/**
 * The SQL value of a metric in a row, NULL when absent or of another type: numeric → JSON numbers only;
 * boolean → true 1, false 0; categorical → 0 for any non-null value (only counted).
 */
function valueSql(type: MetricValueType, param: string): string {
  if (type === 'numeric') return `CASE WHEN json_type(payload, ${param}) IN ('integer', 'real') THEN payload ->> ${param} END`;
  if (type === 'boolean') return `CASE json_type(payload, ${param}) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END`;
  return `CASE WHEN json_type(payload, ${param}) <> 'null' THEN 0 END`;
}

/**
 * The per-row value of a metric with percentiles, which leaves SQL as text: a numeric one as the JSON text
 * of the number, exactly as stored (no digit lost to a conversion), booleans as 1 / 0.
 */
function listedSql(type: MetricValueType, param: string): string {
  return type === 'numeric' ? `payload -> ${param}` : valueSql(type, param);
}

/** The values of `column` joined by commas; for numeric, only JSON numbers (their text starts with a digit or `-`). */
function listAggregate(type: MetricValueType, column: string): string {
  return type === 'numeric' ? `group_concat(${column}) FILTER (WHERE ${column} GLOB '[-0-9]*')` : `group_concat(${column})`;
}

/** Comma-joined numbers (or NULL for none) as an array. */
function valuesOf(list: string | null): Float64Array {
  return list === null ? new Float64Array(0) : new Float64Array(JSON.parse(`[${list}]`) as number[]);
}

/** Several value arrays joined into one. */
function joined(runs: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

/** The percentiles `ps` of some values (reordered in place), null each without values. */
function percentilesOf(values: Float64Array, ps: readonly number[]): (number | null)[] {
  return ps.map((p) => (values.length > 0 ? percentileOf(values, p) : null));
}

/** The window of a stats request: `start` and `end` (normalized ISO 8601 UTC) and its bucket plan. */
export interface StatsWindow {
  start: string;
  end: string;
  plan: BucketPlan;
}

/** The scan of one bucket: its rows, and per metric the partial and the percentiles (in request order, null without values). */
export interface BucketScan {
  count: number;
  parts: PartialStats[];
  percentiles: (number | null)[][];
}

/** What an engine's stats scans answer: each bucket's scan (absent: no rows) and, per metric, the window's percentiles. */
export interface ScannedStats {
  buckets: (BucketScan | undefined)[];
  window: (number | null)[][];
}

/** The time range `[lo, hi)` (ISO 8601 UTC) of bucket `i`: its edges, clipped to the window's `start` and `end`. */
export function bucketRange(plan: BucketPlan, i: number, start: string, end: string): [string, string] {
  const lo = i === 0 ? start : new Date(plan.edges[i]!).toISOString();
  const hi = i + 2 === plan.edges.length ? end : new Date(plan.edges[i + 1]!).toISOString();
  return [lo, hi];
}

/**
 * The SQLite scans: one per bucket. Filters: project, `created_at` in range (index `feedback_created`, or
 * `feedback_type_created` with a type), `feedback_type` exact, `trigger_ref` exact or, ending in `:*`, prefix.
 * One scan per range for all metrics: those without percentiles are aggregated in SQL; a metric with
 * percentiles has its values read and aggregated from them.
 */
export function* sqliteStatsScans(query: StatsQuery, metrics: readonly StatsMetric[], { start, end, plan }: StatsWindow): Steps<ScannedStats> {
  const base: Record<string, unknown> = { project: query.project_id };
  const where = ['project_id = @project', 'created_at >= @lo', 'created_at < @hi'];
  if (query.feedback_type != null) {
    where.push('feedback_type = @type');
    base['type'] = query.feedback_type;
  }
  const trigger = query.trigger_ref;
  if (trigger != null && trigger.endsWith(':*')) {
    where.push('substr(trigger_ref, 1, @prefix_len) = @prefix');
    Object.assign(base, { prefix: trigger.slice(0, -1), prefix_len: trigger.length - 1 });
  } else if (trigger != null) {
    where.push('trigger_ref = @trigger');
    base['trigger'] = trigger;
  }
  metrics.forEach((m, j) => (base[`p${j}`] = m.path));
  const listed = (m: StatsMetric): boolean => m.percentiles.length > 0;
  const columns = metrics.map((m, j) => `${(listed(m) ? listedSql : valueSql)(m.valueType, `@p${j}`)} AS v${j}`);
  const aggregates = metrics.map((m, j) =>
    (listed(m) ? `${listAggregate(m.valueType, `v${j}`)} AS l${j}` : `count(v${j}) AS c${j}, sum(v${j}) AS s${j}, min(v${j}) AS lo${j}, max(v${j}) AS hi${j}`));
  // Without metrics the count comes from the index alone. With them, one pass: `LIMIT -1` keeps the subquery a
  // co-routine, so each value is read from the payload once per row and no temporary table is written.
  const sql = metrics.length === 0
    ? `SELECT count(*) AS n FROM feedback WHERE ${where.join(' AND ')}`
    : `SELECT count(*) AS n, ${aggregates.join(', ')} FROM (SELECT ${columns.join(', ')} FROM feedback WHERE ${where.join(' AND ')} LIMIT -1)`;
  const runs: Float64Array[][] = metrics.map(() => []);
  const buckets: BucketScan[] = [];
  for (let i = 0; i + 1 < plan.edges.length; i++) {
    const [lo, hi] = bucketRange(plan, i, start, end);
    const row = (yield* get<Record<string, number | string | null>>(sql, [{ ...base, lo, hi }]))!;
    const scan: BucketScan = { count: row['n'] as number, parts: [], percentiles: [] };
    metrics.forEach((m, j) => {
      if (listed(m)) {
        const values = valuesOf(row[`l${j}`] as string | null);
        scan.parts.push(partialOf(values));
        scan.percentiles.push(percentilesOf(values, m.percentiles));
        runs[j]!.push(values);
      } else {
        scan.parts.push({ count: row[`c${j}`], sum: row[`s${j}`], min: row[`lo${j}`], max: row[`hi${j}`] } as PartialStats);
        scan.percentiles.push([]);
      }
    });
    buckets.push(scan);
  }
  return { buckets, window: metrics.map((m, j) => percentilesOf(joined(runs[j]!), m.percentiles)) };
}
