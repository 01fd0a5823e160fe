/**
 * Timestamp normalization: any ISO 8601 instant with an offset becomes UTC `YYYY-MM-DDTHH:mm:ss.sssZ`.
 * @module
 */
import { DateTime } from 'weft-trace/wire';

/** The pattern zod's wire `DateTime` checks (valid calendar dates and times); if zod ever stops exposing it, nothing matches. */
export const DATE_TIME_PATTERN: RegExp = DateTime._zod.def.pattern ?? /(?!)/;

/**
 * Normalizes an ISO 8601 timestamp with `Z` or a `±HH:MM` offset to UTC with millisecond precision
 * (digits past the millisecond are dropped). Normalized strings sort in time order.
 *
 * @param value - a timestamp already checked by the `DateTime` wire schema.
 * @returns e.g. `2024-05-01T10:00:00.000Z` for `2024-05-01T12:00:00+02:00`.
 * @throws RangeError when the string is not a valid instant.
 */
export function normalizeTimestamp(value: string): string {
  // Already UTC with milliseconds (what SDKs send): parsing and formatting would give the same string back.
  if (value.length === 24 && value.endsWith('Z') && DATE_TIME_PATTERN.test(value)) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`expected an ISO 8601 timestamp, got ${JSON.stringify(value)}`);
  return new Date(ms).toISOString();
}

/** Milliseconds from `start` to `end` (both normalized timestamps), or null when either is missing. */
export function latencyMs(start: string | null, end: string | null): number | null {
  if (start === null || end === null) return null;
  return Date.parse(end) - Date.parse(start);
}
