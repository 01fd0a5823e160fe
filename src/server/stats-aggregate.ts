/**
 * Aggregations of one metric from partial sums: sum avg min max count count_true count_false, and percentiles.
 * @module
 */
import { percentileName, type Aggregation } from '../schema/feedback.js';

/** What to compute for one metric. */
export interface MetricAggregations {
  aggregations: readonly Aggregation[];
  /** Percentiles in [0, 100]. */
  percentiles: readonly number[];
}

/** Count, sum, min and max of a metric's values over some rows (SQL's: null sum/min/max without values). */
export interface PartialStats {
  count: number;
  sum: number | null;
  min: number | null;
  max: number | null;
}

/** The partial of a list of values. */
export function partialOf(values: readonly number[]): PartialStats {
  if (values.length === 0) return { count: 0, sum: null, min: null, max: null };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { count: values.length, sum, min, max };
}

/** Merges partials of disjoint row sets (buckets) into the partial of their union (the window). */
export function combine(parts: readonly PartialStats[]): PartialStats {
  const out: PartialStats = { count: 0, sum: null, min: null, max: null };
  for (const p of parts) {
    if (p.count === 0) continue;
    out.count += p.count;
    out.sum = (out.sum ?? 0) + (p.sum ?? 0);
    out.min = out.min === null || (p.min !== null && p.min < out.min) ? p.min : out.min;
    out.max = out.max === null || (p.max !== null && p.max > out.max) ? p.max : out.max;
  }
  return out;
}

/**
 * Percentile `p` of sorted values by linear interpolation between closest ranks (R type 7, numpy's default,
 * Excel PERCENTILE.INC): rank `h = (n - 1) * p / 100`.
 *
 * @param sorted - ascending, non-empty.
 * @param p - in [0, 100].
 */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const below = sorted[lo]!;
  return lo + 1 < sorted.length ? below + (h - lo) * (sorted[lo + 1]! - below) : below;
}

/**
 * The requested results of one metric. Booleans are 1 / 0, so `count_true` is their sum; categories only
 * have a count. Without values, counts are 0 and the rest null.
 *
 * @param part - count, sum, min, max of the values.
 * @param sorted - the values in ascending order; needed only when percentiles are requested.
 * @returns `[aggregation name or percentile name (p<N>), result]` in request order: aggregations, then percentiles.
 */
export function metricResults(part: PartialStats, sorted: Float64Array | undefined, what: MetricAggregations): [string, number | null][] {
  const { count, sum } = part;
  const results: Record<Aggregation, number | null> = {
    count,
    count_true: sum ?? 0,
    count_false: count - (sum ?? 0),
    sum: count > 0 ? sum : null,
    avg: count > 0 ? (sum ?? 0) / count : null,
    min: count > 0 ? part.min : null,
    max: count > 0 ? part.max : null,
  };
  const out: [string, number | null][] = what.aggregations.map((agg) => [agg, results[agg]]);
  for (const p of what.percentiles) out.push([percentileName(p), sorted && sorted.length > 0 ? percentileSorted(sorted, p) : null]);
  return out;
}
