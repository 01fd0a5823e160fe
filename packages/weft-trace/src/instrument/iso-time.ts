/**
 * ISO 8601 UTC timestamps with milliseconds, e.g. `2026-11-21T05:16:17.123Z`, formatted once per second and patched per ms.
 * @module
 */

/** `000Z` … `999Z`: the milliseconds and the zone of a timestamp. */
const MS_TAIL: readonly string[] = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(3, '0')}Z`);

/** The largest time a Date holds, in ms from the epoch either way (ECMA-262 §21.4.1.22). */
const MAX_TIME = 8.64e15;

let cachedSecond = Number.NaN;
/** The last timestamp returned and its ms: calls made in the same ms share one string (read once, not rebuilt and copied per event). */
let lastMs = Number.NaN;
let lastIso = '';
/** `new Date(cachedSecond * 1000).toISOString()` without its last 4 characters (`mmmZ`). */
let cachedPrefix = '';

/**
 * `ms` since the Unix epoch as `new Date(ms).toISOString()` gives it (ISO 8601, UTC, ms precision), at a
 * fraction of its cost when timestamps fall in the same second as the previous one.
 * @throws {RangeError} when `ms` is not a valid time (as `toISOString()` does).
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const iso = new Date(second * 1000).toISOString();
    cachedPrefix = iso.slice(0, -4);
    cachedSecond = second;
  }
  // Fractions of a ms and times past the valid range (±8.64e15 ms) take the slow path, which truncates or throws alike.
  const tail = ms <= MAX_TIME && ms >= -MAX_TIME ? MS_TAIL[ms - second * 1000] : undefined;
  const iso = tail === undefined ? new Date(ms).toISOString() : cachedPrefix + tail;
  lastMs = ms;
  lastIso = iso;
  return iso;
}
