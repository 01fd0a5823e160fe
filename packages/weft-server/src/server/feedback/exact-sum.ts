/**
 * Exact sums of doubles: Shewchuk's non-overlapping partials ("Adaptive Precision Floating-Point Arithmetic", 1997;
 * the algorithm of Python's `math.fsum`). The partials of a set of values hold their sum exactly, whatever the order
 * they were added in, so sums kept per hour (feedback rollups) and merged later give the same correctly rounded total
 * as one pass over every value.
 * @module
 */

/**
 * Adds `x` into `partials` (in place, increasing magnitude, non-overlapping).
 * @returns false when the exact sum left the doubles' range (an intermediate overflow); the partials are then unusable.
 */
export function addExact(partials: number[], x: number): boolean {
  let i = 0;
  for (const p of partials) {
    let y = p;
    if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
    const hi = x + y;
    const lo = y - (hi - x);
    if (!Number.isFinite(hi)) return false;
    if (lo !== 0) partials[i++] = lo;
    x = hi;
  }
  partials.length = i;
  partials.push(x);
  return true;
}

/** The sum held by `partials`, correctly rounded to the nearest double (ties to even), as Python's `math.fsum`. */
export function exactValue(partials: readonly number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // half-way case: make the rounding decision with the sign of the next partial
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}
