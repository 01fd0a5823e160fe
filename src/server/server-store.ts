/**
 * The store a server runs on, whichever the engine: `ServerStore`, the one async interface of `Store` (SQLite) and
 * `PgStore` (PostgreSQL), and `EngineStore`, the class both extend, which writes its call methods once over the
 * engine's resource stores. Routes reach those resource stores through {@link storeParts}, never through the public
 * interface.
 * @module
 */
import type Database from 'better-sqlite3';
import type { CallEndRes, CallStartRes } from '../schema/calls.js';
import type { PgDatabase } from './db/pg-database.js';
import type { CallCursorApi, CallStoreApi } from './calls/call-store-api.js';
import type { EndInput, StartInput, UpsertItem } from './calls/call-fields.js';
import type { WireRecord } from './calls/columns.js';
import type { CallsQuery } from './calls/query-sql.js';
import type { StoredCallRecord } from './calls/records.js';
import type { FeedbackStoreApi } from './feedback/feedback-store-api.js';
import type { FileStoreApi, ObjectStoreApi } from './objects/object-store-api.js';
import type { TableStoreApi } from './tables/table-store-api.js';
import type { TrainingStoreApi } from './training/training-store-api.js';
import type { SqlRunner, Wait } from './db/sql-runner.js';
import { FeedbackStore } from './feedback/feedback-store.js';
import { FileStore } from './objects/file-store.js';
import { ObjectStore } from './objects/object-store.js';
import { TableStore } from './tables/table-store.js';
import { TrainingStore } from './training/training-store.js';

/** The database of a server; see `Store` (SQLite) and `PgStore` (PostgreSQL). Every method answers a Promise. */
export interface ServerStore {
  /** `sqlite` or `postgres`. */
  readonly engine: 'sqlite' | 'postgres';
  /** Names of the migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly string[];
  /** True once `close()` ran. */
  readonly closed: boolean;
  /**
   * Stores a call start (upsert on project_id + id); `id` and `trace_id` generated (UUIDv7) when absent.
   * @returns `{id, trace_id}` of the call.
   * @see spec endpoint 7, "Start a call"
   */
  startCall(start: StartInput): Promise<CallStartRes>;
  /** Stores a call end (upsert on project_id + id); works before the start has arrived. @returns `{}`. */
  endCall(end: EndInput): Promise<CallEndRes>;
  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none. Repeating an item
   * never duplicates a call.
   * @returns one result per item, in order: `{id, trace_id}` for a start, `{}` for an end.
   * @throws the first failing write's error; nothing of the batch is stored then.
   * @see spec endpoint 5, "Start calls in batch"
   */
  upsertBatch(items: readonly UpsertItem[]): Promise<(CallStartRes | CallEndRes)[]>;
  /**
   * Opens a cursor over the calls matching a stream query. Close it (or read it to the end) when done.
   * @param query - a validated `CallsQueryReq` body.
   * @throws QueryError for an unknown sort or query field (the app answers 422).
   * @see spec endpoint 3, "Stream-query calls"
   */
  queryCalls(query: CallsQuery): Promise<CallCursorApi<WireRecord>>;
  /**
   * Stores (or renames) users, user id → user name, for stream_query `include_usernames`, all or none.
   * @throws TypeError naming the user id when an id or a name is empty.
   */
  setUsers(users: Record<string, string>): Promise<void>;
  /** Reads every call matching a query into an array (convenient for small results and tests). */
  listCalls(query: CallsQuery): Promise<WireRecord[]>;
  /** One started call by id, or undefined (also while only its end has arrived). */
  getCall(projectId: string, id: string): Promise<StoredCallRecord | undefined>;
  /** Number of stored rows of a project, including ends still waiting for their start. */
  countRows(projectId: string): Promise<number>;
  /** Closes open cursors and the database. Idempotent. */
  close(): Promise<void>;
}

/** What a store is made of: one store per resource (each method may answer a value or a Promise; routes await). */
export interface StoreParts {
  readonly calls: CallStoreApi;
  readonly feedback: FeedbackStoreApi;
  readonly tables: TableStoreApi;
  readonly training: TrainingStoreApi;
  readonly objects: ObjectStoreApi;
  readonly files: FileStoreApi;
  /** The SQLite connection (on SQLite). */
  readonly sqlite?: Database.Database;
  /** The PostgreSQL pools (on PostgreSQL). */
  readonly pg?: PgDatabase;
}

/** The feedback, table, training, object and file stores over an engine's runner: one class each, for both engines. */
export function resourceStores<W extends Wait>(runner: SqlRunner<W>) {
  return { feedback: new FeedbackStore(runner), tables: new TableStore(runner), training: new TrainingStore(runner), objects: new ObjectStore(runner), files: new FileStore(runner) };
}

const PARTS = new WeakMap<ServerStore, StoreParts>();

/**
 * The resource stores of a store opened by `openStore` or `openPgStore` (for the routes, and tests reading a store).
 * @throws TypeError for any other object.
 */
export function storeParts(store: ServerStore): StoreParts {
  const parts = PARTS.get(store);
  if (!parts) throw new TypeError('expected a store opened by openStore() or openPgStore()');
  return parts;
}

/** The call methods of `ServerStore`, written once for both engines over their resource stores. */
export abstract class EngineStore implements ServerStore {
  abstract readonly engine: 'sqlite' | 'postgres';
  abstract readonly closed: boolean;
  readonly #calls: CallStoreApi;

  /**
   * @param parts - the engine's resource stores.
   * @param appliedMigrations - names of the migrations this open applied.
   */
  protected constructor(parts: StoreParts, readonly appliedMigrations: readonly string[]) {
    PARTS.set(this, parts);
    this.#calls = parts.calls;
  }

  async startCall(start: StartInput): Promise<CallStartRes> {
    return this.#calls.startCall(start);
  }

  async endCall(end: EndInput): Promise<CallEndRes> {
    return this.#calls.endCall(end);
  }

  async upsertBatch(items: readonly UpsertItem[]): Promise<(CallStartRes | CallEndRes)[]> {
    return this.#calls.upsertBatch(items);
  }

  async queryCalls(query: CallsQuery): Promise<CallCursorApi<WireRecord>> {
    return this.#calls.queryCalls(query);
  }

  async setUsers(users: Record<string, string>): Promise<void> {
    await this.#calls.setUsers(users);
  }

  async listCalls(query: CallsQuery): Promise<WireRecord[]> {
    return this.#calls.listCalls(query);
  }

  async getCall(projectId: string, id: string): Promise<StoredCallRecord | undefined> {
    return this.#calls.getCall(projectId, id);
  }

  async countRows(projectId: string): Promise<number> {
    return this.#calls.countRows(projectId);
  }

  abstract close(): Promise<void>;
}
