/**
 * The cursor of a stream query, the one shape of both engines' cursors (`CallStore.queryCalls`).
 * @module
 */
import type { MaybePromise } from '../db/store-api.js';

/** Rows of one query, read on demand; the SQLite `CallCursor` is one, and so is the PostgreSQL cursor. */
export interface CallCursorApi<R> {
  /** Up to `max` more records; fewer (possibly none) means the end was reached. */
  next(max: number): MaybePromise<R[]>;
  /** Releases the cursor; idempotent. */
  close(): MaybePromise<void>;
}
