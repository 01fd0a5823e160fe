/**
 * Feedback stats (spec endpoint 6): plans the buckets, scans each bucket's time range in SQL, and builds the answer.
 * @module
 */
import type Database from 'better-sqlite3';
import type { FeedbackStatsBucket, FeedbackStatsRes } from '../../schema/feedback.js';
import { HttpError } from '../http/http-error.js';
import { combine, metricResults, type PartialStats } from './stats-aggregate.js';
import { type BucketPlan, planBuckets, zonedIso } from './stats-buckets.js';
import { metricsOf, prepareScan, type StatsQuery } from './stats-sql.js';
import { normalizeTimestamp } from '../db/timestamps.js';

export type { StatsQuery };

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

/** The window of a stats request: `start` and `end` (normalized ISO 8601 UTC) and its bucket plan. */
export interface StatsWindow {
  start: string;
  end: string;
  plan: BucketPlan;
}

/**
 * Resolves the window of a stats request and plans its buckets (shared by the SQLite and PostgreSQL stores).
 * @param now - the end when `query.end` is absent.
 * @throws HttpError 422 when `start` is not before the end.
 */
export function statsWindow(query: StatsQuery, now: Date): StatsWindow {
  const start = normalizeTimestamp(query.start);
  const end = query.end != null ? normalizeTimestamp(query.end) : now.toISOString();
  if (end <= start) {
    throw HttpError.validation([{ loc: ['body', 'start'], msg: `start must be before the end (${end}, now when end is omitted)`, type: 'value_error' }]);
  }
  return { start, end, plan: planBuckets(Date.parse(start), Date.parse(end), query.granularity ?? undefined, query.timezone) };
}

/** The granularity Weave answers for an empty `metrics` list, in seconds. */
const NO_METRICS_GRANULARITY = 3600;

/**
 * The answer to an explicitly empty `metrics` list, as Weave's trace server gives it (`feedback_stats` in
 * `weave/trace_server`: no buckets, granularity 3600 s, no `window_stats`), or undefined for any other request.
 * An absent `metrics` still gets every bucket's `count` (docs/interface-notes.md, "Feedback statistics").
 * @throws HttpError 422 when `start` is not before the end.
 */
export function noMetricsStats(query: StatsQuery, now: Date): FeedbackStatsRes | undefined {
  if (!Array.isArray(query.metrics) || query.metrics.length > 0) return undefined;
  const { start, end } = statsWindow(query, now);
  return { start, end, granularity: NO_METRICS_GRANULARITY, timezone: query.timezone, buckets: [] };
}

/** The time range `[lo, hi)` (ISO 8601 UTC) of bucket `i`: its edges, clipped to the window's `start` and `end`. */
export function bucketRange(plan: BucketPlan, i: number, start: string, end: string): [string, string] {
  const lo = i === 0 ? start : new Date(plan.edges[i]!).toISOString();
  const hi = i + 2 === plan.edges.length ? end : new Date(plan.edges[i + 1]!).toISOString();
  return [lo, hi];
}

/**
 * Computes feedback stats over `[start, end)`: rows with `start <= created_at < end` that pass the filters.
 *
 * @param db - an open connection with the `create_feedback` migration applied.
 * @param query - the validated request.
 * @param now - the current time; the end when `query.end` is absent.
 * @returns the spec's "Feedback statistics response": `start`/`end` (ISO 8601 UTC), `granularity` (s),
 *   `timezone`, every bucket of the window, gaps included (`timestamp`: bucket start, ISO 8601 in the zone;
 *   `count`; `<agg>_<slug>`; `p<N>_<slug>`), and `window_stats` `{slug: {agg or p<N>: number | null}}`.
 * @throws HttpError 422 when `end` is absent and `start` is not before `now`.
 * @see the interface spec, endpoint 6 "Feedback statistics"
 */
export function feedbackStats(db: Database.Database, query: StatsQuery, now: Date): FeedbackStatsRes {
  const { start, end, plan } = statsWindow(query, now);
  const metrics = metricsOf(query);
  const scan = prepareScan(db, query, metrics);
  const parts: PartialStats[][] = metrics.map(() => []);
  const runs: Float64Array[][] = metrics.map(() => []);
  const buckets: FeedbackStatsBucket[] = [];
  for (let i = 0; i + 1 < plan.edges.length; i++) {
    const [lo, hi] = bucketRange(plan, i, start, end);
    const { count, metrics: scans } = scan(lo, hi);
    const bucket: FeedbackStatsBucket = { timestamp: zonedIso(plan.edges[i]!, query.timezone), count };
    metrics.forEach((m, j) => {
      const { part, values } = scans[j]!;
      parts[j]!.push(part);
      if (values) runs[j]!.push(values);
      for (const [name, value] of metricResults(part, values, m, 'bucket')) bucket[`${name}_${m.slug}`] = value;
    });
    buckets.push(bucket);
  }
  const windowStats = Object.fromEntries(
    metrics.map((m, j) => [m.slug, Object.fromEntries(metricResults(combine(parts[j]!), m.percentiles.length > 0 ? joined(runs[j]!) : undefined, m, 'window'))]),
  );
  return { start, end, granularity: plan.granularity, timezone: query.timezone, buckets, window_stats: windowStats };
}
