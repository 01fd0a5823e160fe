/**
 * Time buckets of feedback stats: automatic granularity, the 10,000-bucket cap, and bucket edges aligned
 * to an IANA time zone (luxon), correct across daylight-saving changes.
 * @module
 */
import { DateTime, IANAZone } from 'luxon';

/** Most buckets a stats answer has; a granularity that would give more is raised. */
export const MAX_BUCKETS = 10_000;

const DAY_S = 86_400;
const HOUR_S = 3_600;
/** The default granularity rule (docs/interface-notes.md, "Feedback statistics"): range (s) up to which each granularity (s) is chosen; longer ranges get a day. */
const AUTO: readonly (readonly [number, number])[] = [
  [2 * HOUR_S, 300],
  [12 * HOUR_S, HOUR_S],
  [3 * DAY_S, 6 * HOUR_S],
  [14 * DAY_S, 12 * HOUR_S],
];
/** Granularities (s) a too-fine one is raised through, before whole multiples of a day. */
const LADDER = [300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, DAY_S];

/** Buckets of one stats answer. */
export interface BucketPlan {
  /** Bucket size used, in seconds (the requested one, or raised to respect {@link MAX_BUCKETS}). */
  granularity: number;
  /** Bucket edges in epoch ms: bucket `i` is `[edges[i], edges[i + 1])`; `edges.length` is buckets + 1. */
  edges: number[];
}

/** The default granularity (s) for a range of `rangeMs` milliseconds, before the bucket cap. */
export function autoGranularity(rangeMs: number): number {
  const rangeS = rangeMs / 1000;
  return AUTO.find(([upTo]) => rangeS <= upTo)?.[1] ?? DAY_S;
}

/** The next coarser granularity after `g` seconds: the next ladder step, then whole days. */
function coarser(g: number): number {
  return LADDER.find((step) => step > g) ?? (Math.floor(g / DAY_S) + 1) * DAY_S;
}

/**
 * Chooses the granularity and the bucket edges covering `[startMs, endMs)`. The first bucket starts at
 * the aligned edge at or before `startMs`; the last one contains `endMs - 1`.
 *
 * Alignment in `timeZone`: a granularity dividing a day puts edges where the local clock reads a multiple
 * of it since local midnight (hours stay hours on a 23 h or 25 h day; a 6 h bucket across a DST change lasts
 * 5 h or 7 h); a whole number of days puts edges at local midnights (a "day" bucket lasts 23 h or 25 h on a
 * change day); any other size steps in real time from the local midnight of `startMs`.
 *
 * @param startMs - inclusive start, epoch ms.
 * @param endMs - exclusive end, epoch ms, after `startMs`.
 * @param requested - granularity in seconds, or undefined for the automatic choice.
 * @param timeZone - an IANA zone name (already validated).
 * @returns the granularity used (raised until there are at most {@link MAX_BUCKETS} buckets) and the edges.
 */
export function planBuckets(startMs: number, endMs: number, requested: number | undefined, timeZone: string): BucketPlan {
  const zone = IANAZone.create(timeZone);
  let g = requested ?? autoGranularity(endMs - startMs);
  for (;;) {
    if ((endMs - startMs) / (g * 1000) <= MAX_BUCKETS) {
      const edges = bucketEdges(startMs, endMs, g, zone);
      if (edges) return { granularity: g, edges };
    }
    g = coarser(g);
  }
}

/** Edges for granularity `g` (s), or undefined when there would be more than {@link MAX_BUCKETS} buckets. */
function bucketEdges(startMs: number, endMs: number, g: number, zone: IANAZone): number[] | undefined {
  const step = stepper(startMs, g, zone);
  const edges = [step.first];
  while (edges[edges.length - 1]! < endMs) {
    if (edges.length > MAX_BUCKETS) return undefined;
    edges.push(step.next(edges[edges.length - 1]!));
  }
  return edges;
}

interface Stepper {
  first: number;
  next(edge: number): number;
}

function stepper(startMs: number, g: number, zone: IANAZone): Stepper {
  if (DAY_S % g === 0) return clockStepper(startMs, g * 1000, zone);
  const midnight = DateTime.fromMillis(startMs, { zone }).startOf('day');
  if (g % DAY_S === 0) {
    const days = g / DAY_S;
    return { first: midnight.toMillis(), next: (edge) => DateTime.fromMillis(edge, { zone }).plus({ days }).toMillis() };
  }
  const gMs = g * 1000;
  const anchor = midnight.toMillis();
  return { first: anchor + Math.floor((startMs - anchor) / gMs) * gMs, next: (edge) => edge + gMs };
}

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** Edges where the local clock is a multiple of `gMs` since midnight, for `gMs` dividing a day. */
function clockStepper(startMs: number, gMs: number, zone: IANAZone): Stepper {
  const offsetMs = (t: number): number => zone.offset(t) * 60_000;
  /** Latest edge at or before `t` in the phase of UTC offset `off`. */
  const floorIn = (t: number, off: number): number => t - mod(t + off, gMs);
  const floor = (t: number): number => {
    const off = offsetMs(t);
    const edge = floorIn(t, off);
    const edgeOff = offsetMs(edge);
    // An offset change between the edge and t: the edge belongs to the earlier offset's phase.
    return edgeOff === off ? edge : floorIn(t, edgeOff);
  };
  const next = (edge: number): number => {
    const candidate = edge + gMs;
    const off = offsetMs(candidate);
    if (off === offsetMs(edge)) return candidate;
    // The offset changed before `candidate`: continue in the new offset's phase, after the change.
    let n = floorIn(edge, off) + gMs;
    while (offsetMs(n) !== off) n += gMs;
    return n;
  };
  return { first: floor(startMs), next };
}

/**
 * An edge as ISO 8601 in the zone, with its offset: `2026-03-08T03:00:00.000-04:00`, or `...Z` for UTC.
 *
 * @param ms - epoch ms.
 * @param timeZone - an IANA zone name.
 */
export function zonedIso(ms: number, timeZone: string): string {
  return DateTime.fromMillis(ms, { zone: timeZone }).toISO() ?? new Date(ms).toISOString();
}
