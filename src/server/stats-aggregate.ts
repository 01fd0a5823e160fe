/**
 * Aggregations of one metric over a run of values: sum avg min max count count_true count_false and percentiles.
 * @module
 */
import { percentileName, type Aggregation } from '../schema/feedback.js';

/** What to compute for one metric. */
export interface MetricAggregations {
  aggregations: readonly Aggregation[];
  /** Percentiles in [0, 100]. */
  percentiles: readonly number[];
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
 * Computes the requested aggregations over `values[from, to)`. Booleans arrive as 1 / 0, categories as 0
 * (only their count is defined). With no values, counts are 0 and the rest null.
 *
 * @returns `[aggregation name or percentile name (`p<N>`), result]` pairs in request order: aggregations, then percentiles.
 */
export function aggregate(values: readonly number[], from: number, to: number, what: MetricAggregations): [string, number | null][] {
  const n = to - from;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const results: Record<Aggregation, number | null> = {
    count: n,
    count_true: sum,
    count_false: n - sum,
    sum: n > 0 ? sum : null,
    avg: n > 0 ? sum / n : null,
    min: n > 0 ? min : null,
    max: n > 0 ? max : null,
  };
  const out: [string, number | null][] = what.aggregations.map((agg) => [agg, results[agg]]);
  if (what.percentiles.length > 0) {
    const sorted = n > 0 ? Float64Array.from(values.slice(from, to)).sort() : undefined;
    for (const p of what.percentiles) out.push([percentileName(p), sorted ? percentileSorted(sorted, p) : null]);
  }
  return out;
}
