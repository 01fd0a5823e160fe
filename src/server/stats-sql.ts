/**
 * The SQL of feedback stats: per time range, one indexed scan giving each metric's count, sum, min and max
 * (values read from the JSONB payload by type), and a scan giving a metric's values for percentiles.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { DEFAULT_AGGREGATIONS, metricSlug, type FeedbackStatsReq, type MetricValueType } from '../schema/feedback.js';
import type { MetricAggregations, PartialStats } from './stats-aggregate.js';

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

/** Runs the stats scans of one request over any `[lo, hi)` (ISO 8601 UTC strings). */
export interface StatsScans {
  /** Row count and each metric's partial over `[lo, hi)`. */
  partials(lo: string, hi: string): { count: number; metrics: PartialStats[] };
  /** Metric `j`'s values over `[lo, hi)` (unsorted). */
  values(j: number, lo: string, hi: string): number[];
}

/**
 * Prepares the scans. Filters: project, `created_at` in range (index `feedback_created`, or
 * `feedback_type_created` with a type), `feedback_type` exact, `trigger_ref` exact or, ending in `:*`, prefix.
 */
export function prepareScans(db: Database.Database, query: StatsQuery, metrics: readonly StatsMetric[]): StatsScans {
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
  const values = metrics.map((m, j) => `${valueSql(m.valueType, `@p${j}`)} AS v${j}`);
  // Without metrics the count comes from the index alone.
  const partialSql = metrics.length === 0
    ? `SELECT count(*) FROM feedback WHERE ${where.join(' AND ')}`
    : `${rows(values.join(', '))} SELECT count(*)${metrics.map((_, j) => `, count(v${j}), sum(v${j}), min(v${j}), max(v${j})`).join('')} FROM s`;
  const partial = db.prepare(partialSql).raw(true);
  const valueStatements = metrics.map((m, j) =>
    m.percentiles.length > 0 ? db.prepare(`${rows(values[j]!)} SELECT v${j} FROM s WHERE v${j} IS NOT NULL`).pluck(true) : undefined,
  );
  return {
    partials(lo, hi) {
      const row = partial.get({ ...base, lo, hi }) as (number | null)[];
      const parts = metrics.map((_, j): PartialStats => {
        const [count, sum, min, max] = row.slice(1 + 4 * j, 5 + 4 * j) as [number, number | null, number | null, number | null];
        return { count, sum, min, max };
      });
      return { count: row[0] as number, metrics: parts };
    },
    values(j, lo, hi) {
      const stmt = valueStatements[j];
      if (!stmt) throw new Error(`metric ${j} has no percentiles`);
      return stmt.all({ ...base, lo, hi }) as number[];
    },
  };
}
