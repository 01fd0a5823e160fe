/**
 * Feedback stats (spec endpoint 6), for both engines: plans the buckets, scans them (stats-sql.ts: SQLite one scan
 * per bucket, PostgreSQL one grouped scan), and builds the answer.
 * @module
 */
import { type FeedbackStatsBucket, type FeedbackStatsRes } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Steps } from '../db/sql-steps.js';
import { HttpError } from '../http/http-error.js';
import { combine, metricResults, partialOf, percentileOf, type PartialStats } from '../stats/stats-aggregate.js';
import { planBuckets, zonedIso } from '../stats/stats-buckets.js';
import { metricsOf, statsRows, type StatsQuery, type StatsRow, type StatsWindow } from './stats-sql.js';
import { rollupRows, type StatsSource } from './stats-rollups.js';
import { normalizeTimestamp } from '../db/timestamps.js';

export type { StatsQuery };

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

const EMPTY: PartialStats = { count: 0, sum: null, min: null, max: null };

/** The percentiles `ps` of some values (reordered in place), null each without values. */
function percentilesOf(values: Float64Array, ps: readonly number[]): (number | null)[] {
  return ps.map((p) => (values.length > 0 ? percentileOf(values, p) : null));
}

/** A stats answer, and where its buckets came from (the route says it in the `x-weft-stats-source` header). */
export interface StatsAnswer {
  res: FeedbackStatsRes;
  source: StatsSource;
}

/**
 * Computes feedback stats over `[start, end)`: rows with `start <= created_at < end` that pass the filters. A metric
 * with percentiles has them computed here from its values (exact JSON numbers), per bucket and over the window.
 *
 * @param d - the engine's dialect: the scan's SQL leaves are picked by it.
 * @param query - the validated request.
 * @param now - the current time; the end when `query.end` is absent.
 * @param useRollups - false reads every bucket from rows (the same answer; for tests and benchmarks). @defaultValue true
 * @returns `res`: the spec's "Feedback statistics response": `start`/`end` (ISO 8601 UTC), `granularity` (s),
 *   `timezone`, every bucket of the window, gaps included (`timestamp`: bucket start, ISO 8601 in the zone;
 *   `count`; `<agg>_<slug>`; `p<N>_<slug>`), and `window_stats` `{slug: {agg or p<N>: number | null}}`.
 * @throws HttpError 422 when `end` is absent and `start` is not before `now`.
 * @see the interface spec, endpoint 6 "Feedback statistics"
 */
export function* feedbackStats(d: Dialect, query: StatsQuery, now: Date, useRollups = true): Steps<StatsAnswer> {
  const window = statsWindow(query, now);
  const { start, end, plan } = window;
  const metrics = metricsOf(query);
  const rows: (StatsRow | undefined)[] = [];
  // the buckets the hour rollups answer (stats-rollups.ts), then the rest from rows
  const rolled = useRollups ? yield* rollupRows(d, query, metrics, window, now) : { buckets: new Set<number>(), rows: [] };
  for (const row of rolled.rows) rows[row.b] = row;
  for (const row of yield* statsRows(d, query, metrics, window, rolled.buckets)) rows[row.b] = row;
  const all = plan.edges.length - 1;
  const source: StatsSource = rolled.buckets.size === 0 ? 'rows' : rolled.buckets.size === all ? 'rollups' : 'rollups+rows';
  const parts: PartialStats[][] = metrics.map(() => []);
  const lists: Float64Array[][] = metrics.map(() => []);
  const buckets: FeedbackStatsBucket[] = [];
  for (let i = 0; i + 1 < plan.edges.length; i++) {
    const row = rows[i];
    const bucket: FeedbackStatsBucket = { timestamp: zonedIso(plan.edges[i]!, query.timezone), count: row?.n ?? 0 };
    metrics.forEach((m, j) => {
      let part = row ? ({ count: row[`c${j}`], sum: row[`s${j}`], min: row[`lo${j}`], max: row[`hi${j}`] } as PartialStats) : EMPTY;
      let percentiles: (number | null)[] | undefined;
      const list = row?.[`l${j}`];
      if (list !== undefined) {
        // the metric's values as a JSON array (a metric with percentiles on both stores; every metric on PostgreSQL),
        // or, from rollups, the values themselves beside their exact count, sum, min and max
        const rolled = list instanceof Float64Array;
        const values = rolled ? list : new Float64Array(JSON.parse((list as string | null) ?? '[]') as number[]);
        // SQLite adds a metric with percentiles in JS too (plainly), one without in its scan (compensated)
        if (!rolled) part = partialOf(values, m.percentiles.length === 0);
        if (m.percentiles.length > 0) {
          percentiles = percentilesOf(values, m.percentiles);
          lists[j]!.push(values);
        }
      }
      parts[j]!.push(part);
      for (const [name, value] of metricResults(part, percentiles, m, 'bucket')) bucket[`${name}_${m.slug}`] = value;
    });
    buckets.push(bucket);
  }
  const windowStats = Object.fromEntries(metrics.map((m, j) => {
    const values = new Float64Array(lists[j]!.reduce((n, l) => n + l.length, 0));
    lists[j]!.reduce((at, l) => (values.set(l, at), at + l.length), 0); // the buckets' values one after another
    const percentiles = percentilesOf(values, m.percentiles);
    return [m.slug, Object.fromEntries(metricResults(combine(parts[j]!), percentiles, m, 'window'))];
  }));
  return { res: { start, end, granularity: plan.granularity, timezone: query.timezone, buckets, window_stats: windowStats }, source };
}
