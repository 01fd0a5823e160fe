/**
 * Order statistics without sorting: the k-th smallest of an array in linear expected time (Hoare's selection).
 * @module
 */

/**
 * Reorders `values` so that `values[k]` is the k-th smallest (0-based), everything before it is `<=` it and
 * everything after it `>=` it, and returns it. Expected O(n) (median-of-three pivots); the array is modified.
 *
 * @param values - numbers without NaN.
 * @param k - an index into `values`.
 * @param left - first index of the range to search (default 0); the k-th smallest of `values[left..right]`.
 * @param right - last index of that range (default `values.length - 1`).
 */
export function quickselect(values: Float64Array, k: number, left = 0, right = values.length - 1): number {
  while (right > left) {
    const mid = (left + right) >>> 1;
    const a = values[left]!;
    const b = values[mid]!;
    const c = values[right]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}
