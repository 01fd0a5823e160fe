/**
 * Id and timestamp helpers: UUIDv7 ids (time-ordered) and ISO 8601 UTC timestamps with ms precision.
 * @module
 */
import { uuidv7 } from 'uuidv7';

/** A new UUIDv7 string; monotonic within this process. */
export const newId: () => string = uuidv7;

/** `ms` since the epoch as ISO 8601 UTC with milliseconds, e.g. `2026-11-21T05:16:17.123Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
