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
}

/**
 * Plans a window.
 * @param startMs - the window's start, epoch ms.
 * @param endMs - its end (exclusive).
 * @param edges - its bucket edges (the first `startMs`, the last `endMs`).
 * @param stale - the marked hours of the project (keys as {@link hourAt} makes them).
 */
export function planOverview(startMs: number, endMs: number, edges: readonly number[], stale: ReadonlySet<string>): OverviewPlan {
  const clean: [number, number][] = []; // [hour ms, bucket]
  let b = 0;
  for (let h = Math.ceil(startMs / HOUR_MS) * HOUR_MS; h + HOUR_MS <= endMs; h += HOUR_MS) {
    while (b + 2 < edges.length && edges[b + 1]! <= h) b++;
    if (edges[b]! <= h && h + HOUR_MS <= edges[b + 1]! && !stale.has(hourAt(h))) clean.push([h, b]);
  }
  let ranges = rangesAround(startMs, endMs, clean.map(([h]) => h));
  while (ranges.length > MAX_LIVE_RANGES) {
    // merge the two ranges with the narrowest gap; its hours are counted live
    let at = 0;
    for (let i = 1; i + 1 < ranges.length; i++) if (ranges[i + 1]![0] - ranges[i]![1] < ranges[at + 1]![0] - ranges[at]![1]) at = i;
    ranges = [...ranges.slice(0, at), [ranges[at]![0], ranges[at + 1]![1]], ...ranges.slice(at + 2)];
  }
  const live = (h: number): boolean => ranges.some(([a, z]) => h < z && h + HOUR_MS > a);
  return { hours: new Map(clean.filter(([h]) => !live(h)).map(([h, i]) => [hourAt(h), i])), ranges };
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
