/**
 * Where each part of an overview's window is read from: the hours whose stored rollup stands (inside the window, inside
 * one bucket, not marked stale), and the time ranges left to count live (stale hours, partial hours at the window's
 * edges, hours cut by a bucket edge, and any hour of windows with buckets under an hour).
 * @module
 */
import { hourAt } from '../write/rollup-marks.js';

/** One hour in ms. */
export const HOUR_MS = 3_600_000;

/** Live ranges at most: past it the narrowest gaps of rollup hours between them are counted live too. */
export const MAX_LIVE_RANGES = 64;

/** The plan of a window. */
export interface OverviewPlan {
  /** Hours read from rollups (`YYYY-MM-DDTHH`) → their bucket. */
  hours: Map<string, number>;
  /** `[startMs, endMs)` ranges counted live, in order, disjoint. */
  ranges: [number, number][];
  /** Stale hours left out (counted neither live nor from rollups; overview-live-bound.ts). */
  pending: number;
}

/**
 * Plans a window.
 * @param startMs - the window's start, epoch ms.
 * @param endMs - its end (exclusive).
 * @param edges - its bucket edges (the first `startMs`, the last `endMs`).
 * @param stale - the marked and claimed hours of the project (keys as {@link hourAt} makes them).
 * @param pendingBefore - stale hours before this instant (epoch ms, on an hour) are left out, where whole inside a
 *   bucket (overview-live-bound.ts). @defaultValue none left out
 */
export function planOverview(startMs: number, endMs: number, edges: readonly number[], stale: ReadonlySet<string>, pendingBefore = -Infinity): OverviewPlan {
  const clean: [number, number][] = []; // [hour ms, bucket]
  const gaps: number[] = []; // hours not counted live: clean ones and left-out ones
  const left = new Set<number>();
  let b = 0;
  for (let h = Math.ceil(startMs / HOUR_MS) * HOUR_MS; h + HOUR_MS <= endMs; h += HOUR_MS) {
    while (b + 2 < edges.length && edges[b + 1]! <= h) b++;
    if (!(edges[b]! <= h && h + HOUR_MS <= edges[b + 1]!)) continue;
    if (!stale.has(hourAt(h))) clean.push([h, b]);
    else if (h < pendingBefore) left.add(h);
    else continue;
    gaps.push(h);
  }
  let ranges = rangesAround(startMs, endMs, gaps);
  const leftOut = [...left]; // ascending
  while (ranges.length > MAX_LIVE_RANGES) {
    // merge the two ranges with the narrowest gap holding no left-out hour; its hours are counted live
    let at = -1;
    const gap = (i: number): number => ranges[i + 1]![0] - ranges[i]![1];
    for (let i = 0; i + 1 < ranges.length; i++) {
      if (!holdsAny(leftOut, ranges[i]![1], ranges[i + 1]![0]) && (at < 0 || gap(i) < gap(at))) at = i;
    }
    if (at < 0) break;
    ranges = [...ranges.slice(0, at), [ranges[at]![0], ranges[at + 1]![1]], ...ranges.slice(at + 2)];
  }
  const live = (h: number): boolean => ranges.some(([a, z]) => h < z && h + HOUR_MS > a);
  return { hours: new Map(clean.filter(([h]) => !live(h)).map(([h, i]) => [hourAt(h), i])), ranges, pending: left.size };
}

/** Whether any of `sorted` (ascending) is in `[a, z)`: a binary search. */
function holdsAny(sorted: readonly number[], a: number, z: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < a) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! < z;
}

/** The ranges of `[startMs, endMs)` outside the given hours (ascending). */
function rangesAround(startMs: number, endMs: number, hours: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  let at = startMs;
  for (const h of hours) {
    if (h > at) out.push([at, h]);
    at = h + HOUR_MS;
  }
  if (at < endMs) out.push([at, endMs]);
  return out;
}
