/**
 * The store a server runs on, whichever the engine: one store per resource (each an interface whose methods may
 * answer a Promise), the call shortcuts tools and tests use, and `close()`. `Store` (SQLite) and `PgStore`
 * (PostgreSQL) implement it.
 * @module
 */
import type { CallEndRes, CallStartRes } from '../schema/calls.js';
import type { CallCursorApi, CallStoreApi } from './calls/call-store-api.js';
import type { EndInput, StartInput, UpsertItem } from './calls/call-writes.js';
import type { WireRecord } from './calls/columns.js';
import type { CallsQuery } from './calls/query-sql.js';
import type { StoredCallRecord } from './calls/records.js';
import type { MaybePromise } from './db/store-api.js';
import type { FeedbackStoreApi } from './feedback/feedback-store-api.js';
import type { FileStoreApi, ObjectStoreApi } from './objects/object-store-api.js';
import type { TableStoreApi } from './tables/table-store-api.js';
import type { TrainingStoreApi } from './training/training-store-api.js';

/** The database of a server; see `Store` (SQLite) and `PgStore` (PostgreSQL). */
export interface ServerStore {
  /** `sqlite` or `postgres`. */
  readonly engine: 'sqlite' | 'postgres';
  /** Names of the migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly string[];
  /** True once `close()` ran. */
  readonly closed: boolean;
  /** @internal */ readonly calls: CallStoreApi;
  /** @internal */ readonly feedback: FeedbackStoreApi;
  /** @internal */ readonly tables: TableStoreApi;
  /** @internal */ readonly training: TrainingStoreApi;
  /** @internal */ readonly objects: ObjectStoreApi;
  /** @internal */ readonly files: FileStoreApi;
  startCall(start: StartInput): MaybePromise<CallStartRes>;
  endCall(end: EndInput): MaybePromise<CallEndRes>;
  upsertBatch(items: readonly UpsertItem[]): MaybePromise<(CallStartRes | CallEndRes)[]>;
  queryCalls(query: CallsQuery): MaybePromise<CallCursorApi<WireRecord>>;
  setUsers(users: Record<string, string>): MaybePromise<void>;
  listCalls(query: CallsQuery): MaybePromise<WireRecord[]>;
  getCall(projectId: string, id: string): MaybePromise<StoredCallRecord | undefined>;
  countRows(projectId: string): MaybePromise<number>;
  /** Closes open cursors and the database. Idempotent. */
  close(): MaybePromise<void>;
}
