/**
 * Feedback stats (spec endpoint 6): one indexed, time-ordered SQL scan; values gathered per bucket, then aggregated.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import {
  DEFAULT_AGGREGATIONS,
  metricSlug,
  type FeedbackStatsBucket,
  type FeedbackStatsReq,
  type FeedbackStatsRes,
  type MetricValueType,
} from '../schema/feedback.js';
import { HttpError } from './http-error.js';
import { aggregate, type MetricAggregations } from './stats-aggregate.js';
import { planBuckets, zonedIso } from './stats-buckets.js';
import { normalizeTimestamp } from './time.js';

/** A validated stats request (zod output of `FeedbackStatsReq`). */
export type StatsQuery = z.output<typeof FeedbackStatsReq>;

interface Metric extends MetricAggregations {
  slug: string;
  /** SQLite JSON path, e.g. `$."scores"."helpfulness"`. */
  path: string;
  valueType: MetricValueType;
}

/** `scores.help ful[0]` → `$."scores"."help ful"[0]` (keys quoted, so any character but `"` is fine). */
export function sqlJsonPath(jsonPath: string): string {
  return '$' + jsonPath.split('.').map((seg) => seg.replace(/^([^[]+)/, '."$1"')).join('');
}

function metricsOf(query: StatsQuery): Metric[] {
  return (query.metrics ?? []).map((m) => ({
    slug: metricSlug(m.json_path),
    path: sqlJsonPath(m.json_path),
    valueType: m.value_type,
    aggregations: m.aggregations ?? DEFAULT_AGGREGATIONS[m.value_type],
    percentiles: m.percentiles ?? [],
  }));
}

/**
 * Reads a value extracted with SQLite's `->` (JSON text, or null when the path is absent) as the metric's type:
 * numeric → the number; boolean → 1 / 0; categorical → 0 for any non-null value. Anything else: undefined (skipped).
 */
function readValue(text: string | null, type: MetricValueType): number | undefined {
  if (text === null) return undefined;
  if (type === 'numeric') {
    const c = text.charCodeAt(0);
    return c === 45 || (c >= 48 && c <= 57) ? Number(text) : undefined;
  }
  if (type === 'boolean') return text === 'true' ? 1 : text === 'false' ? 0 : undefined;
  return text === 'null' ? undefined : 0;
}

/** The scan: rows of the window (and filters) in time order, with each metric's raw JSON value. */
function selectSql(query: StatsQuery, metrics: Metric[], start: string, end: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [...metrics.map((m) => m.path), query.project_id, start, end];
  const where = ['project_id = ?', 'created_at >= ?', 'created_at < ?'];
  if (query.feedback_type != null) {
    where.push('feedback_type = ?');
    params.push(query.feedback_type);
  }
  const trigger = query.trigger_ref;
  if (trigger != null && trigger.endsWith(':*')) {
    where.push('substr(trigger_ref, 1, ?) = ?');
    params.push(trigger.length - 1, trigger.slice(0, -1));
  } else if (trigger != null) {
    where.push('trigger_ref = ?');
    params.push(trigger);
  }
  const columns = ['created_at', ...metrics.map((_, i) => `payload -> ? AS m${i}`)].join(', ');
  return { sql: `SELECT ${columns} FROM feedback WHERE ${where.join(' AND ')} ORDER BY created_at`, params };
}

/** Values of one metric in scan order, and where each bucket's run of them ends. */
interface Gathered {
  values: number[];
  ends: Int32Array;
}

/**
 * Computes feedback stats over `[start, end)`.
 *
 * @param db - an open connection with the `create_feedback` migration applied.
 * @param query - the validated request.
 * @param now - the current time; the end when `query.end` is absent.
 * @returns the spec's "Feedback statistics response": `start`/`end` (UTC), `granularity` (s), `timezone`,
 *   every bucket of the window (`timestamp` in the zone, `count`, `<agg>_<slug>`, `p<N>_<slug>`) and `window_stats`.
 * @throws HttpError 422 when `end` is absent and `start` is not before `now`.
 * @see spec endpoint 6, "Feedback statistics"; DESIGN.md "Wire facts"
 */
export function feedbackStats(db: Database.Database, query: StatsQuery, now: Date): FeedbackStatsRes {
  const start = normalizeTimestamp(query.start);
  const end = query.end != null ? normalizeTimestamp(query.end) : now.toISOString();
  if (end <= start) {
    throw HttpError.validation([{ loc: ['body', 'start'], msg: `start must be before the end (${end}, now when end is omitted)`, type: 'value_error' }]);
  }
  const plan = planBuckets(Date.parse(start), Date.parse(end), query.granularity ?? undefined, query.timezone);
  const edgeIsos = plan.edges.map((ms) => new Date(ms).toISOString());
  const nBuckets = plan.edges.length - 1;
  const metrics = metricsOf(query);
  const counts = new Int32Array(nBuckets);
  const gathered: Gathered[] = metrics.map(() => ({ values: [], ends: new Int32Array(nBuckets) }));

  const { sql, params } = selectSql(query, metrics, start, end);

  let b = 0;
  const closeBucketsBefore = (next: number): void => {
    for (; b < next; b++) for (const g of gathered) g.ends[b] = g.values.length;
  };
  for (const row of db.prepare(sql).raw(true).iterate(...params) as IterableIterator<(string | null)[]>) {
    const at = row[0]!;
    let next = b;
    while (at >= edgeIsos[next + 1]!) next++;
    if (next !== b) closeBucketsBefore(next);
    counts[b]!++;
    for (let j = 0; j < metrics.length; j++) {
      const v = readValue(row[j + 1]!, metrics[j]!.valueType);
      if (v !== undefined) gathered[j]!.values.push(v);
    }
  }
  closeBucketsBefore(nBuckets);

  const buckets: FeedbackStatsBucket[] = [];
  for (let i = 0; i < nBuckets; i++) {
    const bucket: FeedbackStatsBucket = { timestamp: zonedIso(plan.edges[i]!, query.timezone), count: counts[i]! };
    metrics.forEach((m, j) => {
      const g = gathered[j]!;
      for (const [name, value] of aggregate(g.values, i === 0 ? 0 : g.ends[i - 1]!, g.ends[i]!, m)) bucket[`${name}_${m.slug}`] = value;
    });
    buckets.push(bucket);
  }
  const windowStats = Object.fromEntries(metrics.map((m, j) => [m.slug, Object.fromEntries(aggregate(gathered[j]!.values, 0, gathered[j]!.values.length, m))]));
  return { start, end, granularity: plan.granularity, timezone: query.timezone, buckets, window_stats: windowStats };
}
