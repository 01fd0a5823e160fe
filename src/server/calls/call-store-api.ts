/**
 * What the call routes (and the OTLP, edit and viewer routes) need of a call store, implemented on SQLite
 * (`CallStore`) and on PostgreSQL (`PgCallStore`).
 * @module
 */
import type { MaybePromise } from '../db/store-api.js';
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import type { EndInput, StartInput, UpsertItem } from './call-fields.js';
import type { WireRecord } from './columns.js';
import type { CallsQuery } from './query-sql.js';
import type { StoredCallRecord } from './records.js';
import type { OverviewResult } from './overview.js';
import type { OverviewQuery } from './overview-sql.js';

/** Rows of one query, read on demand; the SQLite `CallCursor` is one, and so is the PostgreSQL cursor. */
export interface CallCursorApi<R> {
  /** Up to `max` more records; fewer (possibly none) means the end was reached. */
  next(max: number): MaybePromise<R[]>;
  /** Releases the cursor; idempotent. */
  close(): MaybePromise<void>;
}

/**
 * Calls of one database, the contract of both engines. Every method may answer a Promise; routes await them. A method
 * added here is implemented by `CallStore` (SQLite) and `PgCallStore` (PostgreSQL), whose shared SQL and helpers are
 * in call-store-common.ts.
 */
export interface CallStoreApi {
  /** Ends refused by `strictOrder` so far (each counted once per refused batch). */
  readonly orderRefusals: number;
  /** Stores a call start (upsert on project_id + id); `id` and `trace_id` generated (UUIDv7) when absent. */
  startCall(start: StartInput): MaybePromise<CallStartRes>;
  /** Stores a call end (upsert on project_id + id); works before the start has arrived. */
  endCall(end: EndInput): MaybePromise<CallEndRes>;
  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none.
   * @throws HttpError 422 with `strictOrder`, naming each end whose call has no stored start.
   */
  upsertBatch(items: readonly UpsertItem[]): MaybePromise<(CallStartRes | CallEndRes)[]>;
  /**
   * Opens a cursor; a query error (QueryError) is thrown (or rejected) before any row is read. `signal` aborts when
   * nobody waits for the answer any more: a store whose statements run off the event loop (PostgreSQL) cancels them.
   */
  queryCalls(query: CallsQuery, signal?: AbortSignal): MaybePromise<CallCursorApi<WireRecord>>;
  /**
   * Sets the `display_name` of a call (`null` clears it); Weave SDK compatibility (`/call/update`). A call whose start
   * has not arrived gets the name when it does.
   */
  updateCall(projectId: string, id: string, displayName: string | null): MaybePromise<void>;
  /** Deletes calls with all their descendants, in one transaction; unknown ids are ignored. @returns how many calls were deleted. */
  deleteCalls(projectId: string, ids: readonly string[]): MaybePromise<number>;
  /** Reads every call matching a query into an array. */
  listCalls(query: CallsQuery): MaybePromise<WireRecord[]>;
  /** One started call by id, or undefined (also while only its end has arrived). */
  getCall(projectId: string, id: string): MaybePromise<StoredCallRecord | undefined>;
  /** Number of stored rows of a project, including ends still waiting for their start. */
  countRows(projectId: string): MaybePromise<number>;
  /**
   * Stores (or renames) users, user id → user name, all or none. Ids are what calls carry in `svc_user_id`.
   * @throws TypeError naming the user id when an id or a name is empty.
   */
  setUsers(users: Readonly<Record<string, string>>): MaybePromise<void>;
  /**
   * The overview of a window (`POST /weft/calls/overview`): trace roots counted per time bucket and series in SQL,
   * their usage summed per model and priced (overview-sql.ts, overview.ts).
   */
  overview(query: OverviewQuery): MaybePromise<OverviewResult>;
  /** The ids of the projects holding at least one call, sorted (for the trace viewer's project picker). */
  projectIds(): MaybePromise<string[]>;
  /** Closes the open cursors (before the connection or pool closes). */
  close(): MaybePromise<void>;
}
