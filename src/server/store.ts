/**
 * The public `Store`: one SQLite database of the local server, opened and migrated, holding one store per
 * resource (calls, feedback, tables, training, objects, files); its call methods are kept for tools and tests.
 * @module
 */
import type Database from 'better-sqlite3';
import type { CallEndRes, CallStartRes } from '../schema/calls.js';
import { CallStore } from './calls/call-store.js';
import type { CallCursor } from './calls/call-cursor.js';
import type { EndInput, StartInput, UpsertItem } from './calls/call-writes.js';
import type { WireRecord } from './calls/columns.js';
import { DEFAULT_PRICES, checkPriceTable, type PriceTable } from './calls/prices.js';
import type { CallsQuery } from './calls/query-sql.js';
import type { StoredCallRecord } from './calls/records.js';
import { isMemoryPath, openDatabase } from './db/open-database.js';
import { FeedbackStore } from './feedback/feedback-store.js';
import { FileStore } from './objects/file-store.js';
import { ObjectStore } from './objects/object-store.js';
import { TableStore } from './tables/table-store.js';
import { TrainingStore } from './training/training-store.js';
import type { ServerStore } from './server-store.js';

export type { UpsertItem };

/** Options of {@link openStore} (and `startServer`). */
export interface StoreOptions {
  /**
   * Model prices for stream_query `include_costs`, in USD per 1M tokens, used before the bundled
   * `@pydantic/genai-prices` table for the models they name. @defaultValue none (genai-prices alone)
   */
  prices?: PriceTable;
  /** Users to store at open (user id → user name), for `include_usernames`. @defaultValue none */
  users?: Record<string, string>;
  /**
   * A testing aid for exporters: `POST /call/upsert_batch` answers 422 (`value_error.end_before_start`)
   * for an end whose call has no stored start, instead of keeping the end until its start lands.
   * Refusals are counted in `store.calls.orderRefusals`. @defaultValue false
   */
  strictOrder?: boolean;
}

/**
 * The server's database. Create with {@link openStore}. Methods are synchronous. The HTTP app hands each
 * resource's routes its store (`calls`, `feedback`, `tables`, `training`).
 */
export class Store implements ServerStore {
  /** The engine: SQLite. */
  readonly engine = 'sqlite' as const;
  /** Names of the migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly string[];
  /** @internal Calls, and the users behind `include_usernames`. */
  readonly calls: CallStore;
  /** @internal Feedback. */
  readonly feedback: FeedbackStore;
  /** @internal Tables. */
  readonly tables: TableStore;
  /** @internal Trajectories and training jobs. */
  readonly training: TrainingStore;
  /** @internal Object versions (Weave SDK compatibility). */
  readonly objects: ObjectStore;
  /** @internal Files (Weave SDK compatibility). */
  readonly files: FileStore;
  private readonly db: Database.Database;

  /**
   * @param path - a file path, or `:memory:`.
   * @param options - prices and users; see {@link StoreOptions}.
   * @throws the SQLite error when the file cannot be opened or a migration fails; TypeError for bad options.
   */
  constructor(readonly path: string, options: StoreOptions = {}) {
    const prices = { ...DEFAULT_PRICES, ...checkPriceTable(options.prices ?? {}) };
    const { connection, appliedMigrations } = openDatabase(path);
    this.db = connection;
    this.appliedMigrations = appliedMigrations;
    this.feedback = new FeedbackStore(connection);
    this.calls = new CallStore(connection, { path, prices, feedback: this.feedback, strictOrder: options.strictOrder });
    this.tables = new TableStore(connection);
    this.training = new TrainingStore(connection);
    this.objects = new ObjectStore(connection);
    this.files = new FileStore(connection);
    if (options.users) this.calls.setUsers(options.users);
  }

  /** True for an in-memory database (`:memory:` or empty path). */
  get memory(): boolean {
    return isMemoryPath(this.path);
  }

  /** True once {@link Store.close} ran. */
  get closed(): boolean {
    return !this.db.open;
  }

  /** @internal The open connection (tests and tools reading the tables directly). */
  get connection(): Database.Database {
    return this.db;
  }

  /**
   * Stores a call start (upsert on project_id + id). Generates `id` and `trace_id` (UUIDv7) when absent.
   * @returns `{id, trace_id}` of the call.
   * @see spec endpoint 7, "Start a call"
   */
  startCall(start: StartInput): CallStartRes {
    return this.calls.startCall(start);
  }

  /**
   * Stores a call end (upsert on project_id + id); works before the start has arrived.
   * @returns `{}`.
   */
  endCall(end: EndInput): CallEndRes {
    return this.calls.endCall(end);
  }

  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none.
   * Repeating an item never duplicates a call.
   *
   * @returns one result per item, in order: `{id, trace_id}` for a start, `{}` for an end.
   * @throws the first failing write's error; nothing of the batch is stored then.
   * @see spec endpoint 5, "Start calls in batch"
   */
  upsertBatch(items: readonly UpsertItem[]): (CallStartRes | CallEndRes)[] {
    return this.calls.upsertBatch(items);
  }

  /**
   * Opens a cursor over the calls matching a stream query. Close it (or read it to the end) when done.
   *
   * @param query - a validated `CallsQueryReq` body.
   * @throws QueryError for an unknown sort or query field (the app answers 422).
   * @see spec endpoint 3, "Stream-query calls"
   */
  queryCalls(query: CallsQuery): CallCursor<WireRecord> {
    return this.calls.queryCalls(query);
  }

  /**
   * Stores (or renames) users, user id → user name, for stream_query `include_usernames`.
   * @throws TypeError naming the user id when an id or a name is empty (none of them is stored then).
   */
  setUsers(users: Record<string, string>): void {
    this.calls.setUsers(users);
  }

  /** Reads every call matching a query into an array (convenient for small results and tests). */
  listCalls(query: CallsQuery): WireRecord[] {
    return this.calls.listCalls(query);
  }

  /** One started call by id, or undefined (also while only its end has arrived). */
  getCall(projectId: string, id: string): StoredCallRecord | undefined {
    return this.calls.getCall(projectId, id);
  }

  /** Number of stored rows of a project, including ends still waiting for their start. */
  countRows(projectId: string): number {
    return this.calls.countRows(projectId);
  }

  /** Closes open cursors and the database. Idempotent. */
  close(): void {
    this.calls.close();
    if (this.db.open) this.db.close();
  }
}

/**
 * Opens (creating if needed) a store and applies pending migrations. Files use WAL journaling.
 *
 * @param path - database file, or `':memory:'` for a throwaway store. Default `'weft.db'` in the cwd.
 * @param options - prices and users; see {@link StoreOptions}.
 * @returns the open store; close it with `store.close()`.
 * @throws the SQLite error when the file cannot be opened or a migration fails.
 * @example
 * ```ts
 * const store = openStore(':memory:');
 * store.startCall({ project_id: 'acme/demo', op_name: 'add', started_at: new Date().toISOString(), attributes: {}, inputs: {} });
 * ```
 */
export function openStore(path = 'weft.db', options: StoreOptions = {}): Store {
  return new Store(path, options);
}
