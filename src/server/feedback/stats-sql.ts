/**
 * The SQL of feedback stats: per time range, one indexed scan giving each metric's count, sum, min and max
 * (values read from the JSONB payload by type) and the values of the metrics with percentiles.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { DEFAULT_AGGREGATIONS, metricSlug, type FeedbackStatsReq, type MetricValueType } from '../../schema/feedback.js';
import { partialOf, type MetricAggregations, type PartialStats } from './stats-aggregate.js';

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

/** One metric over a range: its partial, and its values when it has percentiles. */
export interface MetricScan {
  part: PartialStats;
  /** The values (unsorted, in scan order), only for metrics with percentiles. */
  values?: Float64Array;
}

/** Runs the stats scans of one request over any `[lo, hi)` (ISO 8601 UTC strings). */
export type StatsScan = (lo: string, hi: string) => { count: number; metrics: MetricScan[] };

/**
 * Prepares the scans. Filters: project, `created_at` in range (index `feedback_created`, or
 * `feedback_type_created` with a type), `feedback_type` exact, `trigger_ref` exact or, ending in `:*`, prefix.
 * One scan per range for all metrics: those without percentiles are aggregated in SQL; a metric with
 * percentiles has its values read and aggregated from them.
 */
export function prepareScan(db: Database.Database, query: StatsQuery, metrics: readonly StatsMetric[]): StatsScan {
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
  const aggregates = metrics.map((m, j) => (listed(m) ? listAggregate(m.valueType, `v${j}`) : `count(v${j}), sum(v${j}), min(v${j}), max(v${j})`));
  // Without metrics the count comes from the index alone. With them, one pass: `LIMIT -1` keeps the subquery a
  // co-routine, so each value is read from the payload once per row and no temporary table is written.
  const scanSql = metrics.length === 0
    ? `SELECT count(*) FROM feedback WHERE ${where.join(' AND ')}`
    : `SELECT count(*), ${aggregates.join(', ')} FROM (SELECT ${columns.join(', ')} FROM feedback WHERE ${where.join(' AND ')} LIMIT -1)`;
  const statement = db.prepare(scanSql).raw(true);
  return (lo, hi) => {
    const row = statement.get({ ...base, lo, hi }) as (number | string | null)[];
    let at = 1;
    const scans = metrics.map((m): MetricScan => {
      if (listed(m)) {
        const values = valuesOf(row[at++] as string | null);
        return { part: partialOf(values), values };
      }
      const [count, sum, min, max] = row.slice(at, (at += 4)) as [number, number | null, number | null, number | null];
      return { part: { count, sum, min, max } };
    });
    return { count: row[0] as number, metrics: scans };
  };
}
