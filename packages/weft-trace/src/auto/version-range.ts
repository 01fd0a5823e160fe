/**
 * Whether an installed version is in an instrumentation's range: the two forms the table uses, `>=A.B.C <D.E.F` and
 * `^A.B.C`, compared as numbers (a prerelease counts as its release). Written here rather than taking `semver`
 * (0.3 MB installed) because the SDK's install budget (10 MB) has no room for it.
 * @module
 */

type Triple = [number, number, number];

function triple(v: string): Triple | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The bounds of `range`: `>=low <high`, or `^x.y.z` (up to the next major; for 0.x, the next minor). */
function bounds(range: string): { low: Triple; high: Triple } | undefined {
  const caret = /^\^(.+)$/.exec(range.trim());
  if (caret) {
    const low = triple(caret[1]!);
    if (!low) return undefined;
    return { low, high: low[0] > 0 ? [low[0] + 1, 0, 0] : [0, low[1] + 1, 0] };
  }
  const pair = /^>=\s*(\S+)\s+<\s*(\S+)$/.exec(range.trim());
  const low = pair && triple(pair[1]!);
  const high = pair && triple(pair[2]!);
  return low && high ? { low, high } : undefined;
}

/** True when `version` is inside `range` (`>=4 <8`, `^1.0.0`); false for a version or range it cannot read. */
export function inRange(version: string, range: string): boolean {
  const v = triple(version);
  const b = bounds(range);
  return v !== undefined && b !== undefined && compare(v, b.low) >= 0 && compare(v, b.high) < 0;
}
