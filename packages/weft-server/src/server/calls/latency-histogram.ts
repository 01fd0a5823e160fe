/**
 * The overview's mergeable latency histogram: fixed log-scale bins over integer milliseconds, so two histograms merge by
 * adding their bins, and p50 / p95 read from the merged bins are within {@link LATENCY_RELATIVE_ERROR} of the exact
 * percentiles (PostgreSQL's `percentile_cont`, linear interpolation between ranks). The bins are DDSketch's idea
 * (Masson et al., "DDSketch: a fast and fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019)
 * over integer bounds, so that SQLite (`weft_latency_bin`, db/sql-functions.ts) and PostgreSQL (`width_bucket` over the
 * same bounds, db/pg-migrations.ts) put every latency in the same bin.
 * @module
 */

/** Growth of a bin's lower bound over the previous one (at least +1 ms): bins are at most 2% wide. */
const GROWTH = 1.02;

/**
 * The relative error of a percentile read from the histogram against the exact one: at most (g - 1) / (g + 1) with
 * g = 1.02, about 0.99%. Each latency is replaced by its bin's representative, within that error of it (bins up to
 * 50 ms hold one integer each: exact there), and interpolation between ranks keeps the bound.
 */
export const LATENCY_RELATIVE_ERROR = (GROWTH - 1) / (GROWTH + 1);

/**
 * Lower bounds of the positive bins, in ms: bin k (1-based) holds the integers in `[BOUNDS[k-1], BOUNDS[k])`, the last
 * bin all from its bound up (past 2^53 ms, ~285,000 years). Bin 0 holds 0; bin -k the negatives mirrored (an end before
 * its start, with skewed clocks).
 */
export const LATENCY_BOUNDS: readonly number[] = (() => {
  const out = [1];
  for (let b = 1; b < Number.MAX_SAFE_INTEGER / GROWTH;) out.push((b = Math.max(b + 1, Math.ceil(b * GROWTH))));
  return out;
})();

/** Index of the last bound <= x among the bounds (x >= 1), 1-based: `width_bucket(x, bounds)` of PostgreSQL. */
function widthBucket(x: number): number {
  let lo = 0;
  let hi = LATENCY_BOUNDS.length; // answer in [lo+1 .. hi]: invariant BOUNDS[lo] <= x
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (LATENCY_BOUNDS[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return lo + 1;
}

/**
 * The bin of a latency (ms, rounded to an integer as `summary.latency_ms` is), or null for none (a running call).
 */
export function latencyBin(ms: number | null): number | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  const x = Math.round(ms);
  return x === 0 ? 0 : x > 0 ? widthBucket(x) : -widthBucket(-x);
}

/** The value standing for bin `k`: its one integer, else the value of least relative error over its range. */
export function binValue(k: number): number {
  if (k === 0) return 0;
  if (k < 0) return -binValue(-k);
  const lo = LATENCY_BOUNDS[k - 1]!;
  const next = LATENCY_BOUNDS[k];
  if (next === undefined) return lo;
  const hi = next - 1;
  return lo === hi ? lo : (2 * lo * hi) / (lo + hi);
}

/** A histogram: bin → count. */
export type LatencyHistogram = Map<number, number>;

/** Adds `count` latencies of bin `k` to `into`. */
export function addToHistogram(into: LatencyHistogram, k: number, count: number): void {
  into.set(k, (into.get(k) ?? 0) + count);
}

/** Adds every bin of `from` to `into`. */
export function mergeHistogram(into: LatencyHistogram, from: LatencyHistogram): void {
  for (const [k, n] of from) into.set(k, (into.get(k) ?? 0) + n);
}

/** A histogram as stored in `call_rollups.histogram`: JSON `[bin, count, bin, count, ...]`, bins ascending. */
export function histogramText(h: LatencyHistogram): string {
  const bins = [...h.keys()].sort((a, b) => a - b);
  return JSON.stringify(bins.flatMap((k) => [k, h.get(k)!]));
}

/** Adds a stored histogram ({@link histogramText}) into `into`. */
export function addHistogramText(into: LatencyHistogram, text: string | null): void {
  if (!text) return;
  const flat = JSON.parse(text) as number[];
  for (let i = 0; i + 1 < flat.length; i += 2) addToHistogram(into, flat[i]!, flat[i + 1]!);
}

/**
 * Percentiles of a histogram, each as `percentile_cont` computes it over the bins' values (linear interpolation
 * between the ranks around `(n - 1) * p`), or null when it is empty.
 * @param ps - percentiles, 0 to 100.
 */
export function histogramPercentiles(h: LatencyHistogram, ps: readonly number[]): (number | null)[] {
  const bins = [...h.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const n = bins.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return ps.map(() => null);
  /** The value of the element at 0-based rank r. */
  const at = (r: number): number => {
    let seen = 0;
    for (const [k, c] of bins) {
      seen += c;
      if (r < seen) return binValue(k);
    }
    return binValue(bins[bins.length - 1]![0]);
  };
  return ps.map((p) => {
    const h0 = ((n - 1) * p) / 100;
    const lo = Math.floor(h0);
    const a = at(lo);
    return h0 === lo ? a : a + (h0 - lo) * (at(lo + 1) - a);
  });
}
