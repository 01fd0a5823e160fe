/**
 * The SQL of feedback stats: per time range, one indexed scan giving each metric's count, sum, min and max
 * (values read from the JSONB payload by type), or a metric's values when it has percentiles.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { DEFAULT_AGGREGATIONS, metricSlug, type FeedbackStatsReq, type MetricValueType } from '../schema/feedback.js';
import { partialOf, type MetricAggregations, type PartialStats } from './stats-aggregate.js';

/** A validated stats request (zod output of `FeedbackStatsReq`). */
export type StatsQuery = z.output<typeof FeedbackStatsReq>;

/** One requested metric, resolved. */
export interface StatsMetric extends MetricAggregations {
  slug: string;
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

/** One metric over a range: its partial, and its values when it has percentiles. */
export interface MetricScan {
  part: PartialStats;
  /** The values (unsorted), only for metrics with percentiles. */
  values?: number[];
}

/** Runs the stats scans of one request over any `[lo, hi)` (ISO 8601 UTC strings). */
export type StatsScan = (lo: string, hi: string) => { count: number; metrics: MetricScan[] };

/**
 * Prepares the scans. Filters: project, `created_at` in range (index `feedback_created`, or
 * `feedback_type_created` with a type), `feedback_type` exact, `trigger_ref` exact or, ending in `:*`, prefix.
 * Metrics without percentiles are aggregated in SQL (one scan for all of them); a metric with
 * percentiles has its values read once and aggregated from them.
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
  // MATERIALIZED: each value is read from the payload once per row, not once per aggregate.
  const rows = (columns: string): string => `WITH s AS MATERIALIZED (SELECT ${columns} FROM feedback WHERE ${where.join(' AND ')})`;
  const value = (j: number): string => `${valueSql(metrics[j]!.valueType, `@p${j}`)} AS v${j}`;
  const inSql = metrics.flatMap((m, j) => (m.percentiles.length === 0 ? [j] : []));
  // Without SQL-aggregated metrics the count comes from the index alone.
  const partial = db.prepare(inSql.length === 0
    ? `SELECT count(*) FROM feedback WHERE ${where.join(' AND ')}`
    : `${rows(inSql.map(value).join(', '))} SELECT count(*)${inSql.map((j) => `, count(v${j}), sum(v${j}), min(v${j}), max(v${j})`).join('')} FROM s`,
  ).raw(true);
  const valueStatements = metrics.map((m, j) =>
    m.percentiles.length > 0 ? db.prepare(`${rows(value(j))} SELECT v${j} FROM s WHERE v${j} IS NOT NULL`).pluck(true) : undefined,
  );
  return (lo, hi) => {
    const params = { ...base, lo, hi };
    const row = partial.get(params) as (number | null)[];
    const scans = metrics.map((_, j): MetricScan => {
      const stmt = valueStatements[j];
      if (stmt) {
        const values = stmt.all(params) as number[];
        return { part: partialOf(values), values };
      }
      const at = 1 + 4 * inSql.indexOf(j);
      const [count, sum, min, max] = row.slice(at, at + 4) as [number, number | null, number | null, number | null];
      return { part: { count, sum, min, max } };
    });
    return { count: row[0] as number, metrics: scans };
  };
}
