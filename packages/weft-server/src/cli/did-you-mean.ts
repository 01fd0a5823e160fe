/**
 * "Did you mean ...?" for a mistyped choice: the nearest allowed value by edit distance (optimal string alignment: insertions, deletions, substitutions, swaps of neighbours).
 * @module
 */

/** Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The allowed value nearest to `value`, when it is near enough to be a typo (at most a third of its
 * letters wrong, at least one allowed); `undefined` otherwise.
 * @example closestChoice('eror', ['success', 'error']) // 'error'
 */
export function closestChoice(value: string, choices: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(value.length / 3)) + 1;
  for (const c of choices) {
    const n = distance(value.toLowerCase(), c.toLowerCase());
    if (n < bestDistance) {
      best = c;
      bestDistance = n;
    }
  }
  return best;
}
