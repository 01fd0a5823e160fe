/**
 * What the call routes (and the OTLP, edit and viewer routes) need of a call store, implemented on SQLite
 * (`CallStore`) and on PostgreSQL (`PgCallStore`).
 * @module
 */
import type { MaybePromise } from '../db/store-api.js';
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import type { EndInput, StartInput, UpsertItem } from './call-writes.js';
import type { WireRecord } from './columns.js';
import type { CallsQuery } from './query-sql.js';
import type { StoredCallRecord } from './records.js';

/** Rows of one query, read on demand; the SQLite `CallCursor` is one, and so is the PostgreSQL cursor. */
export interface CallCursorApi<R> {
  /** Up to `max` more records; fewer (possibly none) means the end was reached. */
  next(max: number): MaybePromise<R[]>;
  /** Releases the cursor; idempotent. */
  close(): MaybePromise<void>;
}

/** Calls of one database. Every method may answer a Promise; routes await them. See `CallStore` for each method's contract. */
export interface CallStoreApi {
  /** Ends refused by `strictOrder` so far. */
  readonly orderRefusals: number;
  startCall(start: StartInput): MaybePromise<CallStartRes>;
  endCall(end: EndInput): MaybePromise<CallEndRes>;
  upsertBatch(items: readonly UpsertItem[]): MaybePromise<(CallStartRes | CallEndRes)[]>;
  /**
   * Opens a cursor; a query error (QueryError) is thrown (or rejected) before any row is read. `signal` aborts when
   * nobody waits for the answer any more: a store whose statements run off the event loop (PostgreSQL) cancels them.
   */
  queryCalls(query: CallsQuery, signal?: AbortSignal): MaybePromise<CallCursorApi<WireRecord>>;
  updateCall(projectId: string, id: string, displayName: string | null): MaybePromise<void>;
  deleteCalls(projectId: string, ids: readonly string[]): MaybePromise<number>;
  listCalls(query: CallsQuery): MaybePromise<WireRecord[]>;
  getCall(projectId: string, id: string): MaybePromise<StoredCallRecord | undefined>;
  countRows(projectId: string): MaybePromise<number>;
  setUsers(users: Readonly<Record<string, string>>): MaybePromise<void>;
  projectIds(): MaybePromise<string[]>;
  close(): MaybePromise<void>;
}
