/**
 * Aggregations of one metric from partial sums: sum avg min max count count_true count_false, and percentiles.
 * @module
 */
import { percentileName, type Aggregation } from 'weft-trace/wire';
import { quickselect } from './quickselect.js';

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

/**
 * The partial of a list of values, summed in list order. With `compensated`, the sum is added as SQLite's `sum()` adds
 * floats (Kahan-Babuska-Neumaier, `kahanBabuskaNeumaierStep` in SQLite's func.c; the step and final addition of
 * PostgreSQL migration 2's `weft_kbn_sum`): what the SQLite store's scan answers for a metric without percentiles,
 * computed from the PostgreSQL store's list of the same values in the same order, so both stores answer the same bits.
 */
export function partialOf(values: ArrayLike<number>, compensated = false): PartialStats {
  if (values.length === 0) return { count: 0, sum: null, min: null, max: null };
  let sum = 0;
  let err = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (compensated) {
      const t = sum + v;
      err += Math.abs(sum) > Math.abs(v) ? (sum - t) + v : (v - t) + sum;
      sum = t;
    } else sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { count: values.length, sum: Number.isNaN(err) ? sum : sum + err, min, max };
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
 * Percentile `p` by linear interpolation between closest ranks (R type 7, numpy's default, Excel
 * PERCENTILE.INC): rank `h = (n - 1) * p / 100` of the values in ascending order. Found by selection,
 * not by sorting: the same result as sorting first, in linear time.
 *
 * @param values - non-empty, without NaN; reordered in place.
 * @param p - in [0, 100].
 */
export function percentileOf(values: Float64Array, p: number): number {
  const h = ((values.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const below = quickselect(values, lo);
  if (lo + 1 >= values.length) return below;
  // Selection left everything after index lo at or above `below`: the next rank is their minimum.
  let next = Infinity;
  for (let i = lo + 1; i < values.length; i++) if (values[i]! < next) next = values[i]!;
  return below + (h - lo) * (next - below);
}

/**
 * The requested results of one metric. Booleans are 1 / 0, so `count_true` is their sum; categories only
 * have a count. Without values, counts are 0; in a bucket `sum` and `avg` are 0 too (Weave's ClickHouse query
 * wraps `sum_*`, `count_*` and `avg_*` of a bucket in `COALESCE(.., 0)`), in the window null (its `sumOrNull`,
 * `avgOrNull`); `min`, `max` and percentiles are null in both.
 *
 * @param part - count, sum, min, max of the values.
 * @param percentiles - the values of `what.percentiles`, in their order (as computed by `percentileOf`, or in SQL alike).
 * @param scope - `bucket` (one time bucket) or `window` (the whole window, `window_stats`).
 * @returns `[aggregation name or percentile name (p<N>), result]` in request order: aggregations, then percentiles.
 */
export function metricResults(part: PartialStats, percentiles: readonly (number | null)[] | undefined, what: MetricAggregations, scope: 'bucket' | 'window'): [string, number | null][] {
  const { count, sum } = part;
  const none = scope === 'bucket' ? 0 : null;
  const results: Record<Aggregation, number | null> = {
    count,
    count_true: sum ?? 0,
    count_false: count - (sum ?? 0),
    sum: count > 0 ? sum : none,
    avg: count > 0 ? (sum ?? 0) / count : none,
    min: count > 0 ? part.min : null,
    max: count > 0 ? part.max : null,
  };
  const out: [string, number | null][] = what.aggregations.map((agg) => [agg, results[agg]]);
  what.percentiles.forEach((p, k) => out.push([percentileName(p), count > 0 ? (percentiles?.[k] ?? null) : null]));
  return out;
}
