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

/** The highest bin: bins run from -MAX_BIN to MAX_BIN. */
const MAX_BIN = LATENCY_BOUNDS.length;
/** Bins added around a histogram's range when it grows, so a few growths cover a row's bins. */
const GROW_BY = 32;
const NO_COUNTS = new Float64Array(0);

/**
 * A histogram: a count per bin, held dense over the range of bins it has seen (a typed array from its lowest bin to
 * its highest), so adding and merging are array walks with no allocation per bin; counts are exact up to 2^53.
 */
export class LatencyHistogram {
  /** The bin of `counts[0]`. */
  #lo = 0;
  #counts = NO_COUNTS;

  /** Adds `count` latencies of bin `k` (an integer from -{@link MAX_BIN} to MAX_BIN). */
  add(k: number, count: number): void {
    const at = k - this.#lo;
    if (at >= 0 && at < this.#counts.length) this.#counts[at]! += count;
    else {
      this.#cover(k, k);
      this.#counts[k - this.#lo]! += count;
    }
  }

  /** Adds every bin of `from`. */
  merge(from: LatencyHistogram): void {
    const src = from.#counts;
    let first = 0;
    let last = src.length - 1;
    while (first <= last && src[first] === 0) first++;
    while (last >= first && src[last] === 0) last--;
    if (first > last) return;
    this.#cover(from.#lo + first, from.#lo + last);
    const off = from.#lo - this.#lo;
    const dst = this.#counts;
    for (let i = first; i <= last; i++) dst[i + off]! += src[i]!;
  }

  /** Calls `f` with each bin holding a count, ascending, and its count. */
  forEach(f: (k: number, count: number) => void): void {
    const c = this.#counts;
    for (let i = 0; i < c.length; i++) if (c[i] !== 0) f(i + this.#lo, c[i]!);
  }

  /** Grows the range to hold bins `a` to `z`. */
  #cover(a: number, z: number): void {
    const hi = this.#lo + this.#counts.length - 1;
    if (this.#counts.length > 0 && a >= this.#lo && z <= hi) return;
    const lo = Math.max(-MAX_BIN, Math.min(a, this.#counts.length > 0 ? this.#lo : a) - GROW_BY);
    const top = Math.min(MAX_BIN, Math.max(z, this.#counts.length > 0 ? hi : z) + GROW_BY);
    const counts = new Float64Array(top - lo + 1);
    if (this.#counts.length > 0) counts.set(this.#counts, this.#lo - lo);
    this.#lo = lo;
    this.#counts = counts;
  }
}

/** A histogram as stored in `call_rollups.histogram`: JSON `[bin, count, bin, count, ...]`, bins ascending. */
export function histogramText(h: LatencyHistogram): string {
  const flat: number[] = [];
  h.forEach((k, n) => flat.push(k, n));
  return JSON.stringify(flat);
}

/**
 * Adds a stored histogram ({@link histogramText}) into each of `into`, read in one pass over its characters (no
 * JSON.parse: the overview reads thousands of them). Text it does not expect (other than integers, commas, brackets
 * and spaces) is read by JSON.parse instead.
 */
export function addHistogramText(into: LatencyHistogram | readonly LatencyHistogram[], text: string | null): void {
  if (!text) return;
  const targets = into instanceof LatencyHistogram ? [into] : into;
  let bin = 0;
  let value = 0;
  let negative = false;
  let digits = false;
  let isCount = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits = true;
    } else if (c === 45 && !digits) negative = true;
    else if (c === 44 || c === 93) {
      if (digits) {
        const v = negative ? -value : value;
        if (isCount) for (const h of targets) h.add(bin, v);
        else bin = v;
        isCount = !isCount;
      }
      value = 0;
      negative = false;
      digits = false;
    } else if (c !== 91 && c !== 32) return addParsed(targets, text);
  }
}

/** {@link addHistogramText} by JSON.parse. */
function addParsed(targets: readonly LatencyHistogram[], text: string): void {
  const flat = JSON.parse(text) as number[];
  for (let i = 0; i + 1 < flat.length; i += 2) for (const h of targets) h.add(flat[i]!, flat[i + 1]!);
}

/**
 * Percentiles of a histogram, each as `percentile_cont` computes it over the bins' values (linear interpolation
 * between the ranks around `(n - 1) * p`), or null when it is empty.
 * @param ps - percentiles, 0 to 100.
 */
export function histogramPercentiles(h: LatencyHistogram, ps: readonly number[]): (number | null)[] {
  const bins: number[] = [];
  const counts: number[] = [];
  h.forEach((k, c) => {
    if (c > 0) bins.push(k), counts.push(c);
  });
  const n = counts.reduce((s, c) => s + c, 0);
  if (n === 0) return ps.map(() => null);
  /** The value of the element at 0-based rank r. */
  const at = (r: number): number => {
    let seen = 0;
    for (let i = 0; i < bins.length; i++) {
      seen += counts[i]!;
      if (r < seen) return binValue(bins[i]!);
    }
    return binValue(bins[bins.length - 1]!);
  };
  return ps.map((p) => {
    const h0 = ((n - 1) * p) / 100;
    const lo = Math.floor(h0);
    const a = at(lo);
    return h0 === lo ? a : a + (h0 - lo) * (at(lo + 1) - a);
  });
}
