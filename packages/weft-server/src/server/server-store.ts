/**
 * The store a server runs on, whichever the engine: `ServerStore`, the base class of `Store` (SQLite) and `PgStore`
 * (PostgreSQL), whose methods are written once over the engine's resource stores ({@link engineParts}). Routes reach
 * those resource stores through {@link storeParts}, never through the public methods.
 * @module
 */
import type Database from 'better-sqlite3';
import type { CallEndRes, CallStartRes } from 'weft-trace/wire';
import type { PgDatabase } from './db/pg-database.js';
import type { CallCursorApi } from './calls/query/call-cursor.js';
import type { EndInput, StartInput, UpsertItem } from './calls/write/call-fields.js';
import { type CallEngine, CallStore, type CallStoreDeps } from './calls/call-store.js';
import type { WireRecord } from './calls/query/columns.js';
import type { CallsQuery } from './calls/query/query-sql.js';
import type { StoredCallRecord } from './calls/query/records.js';
import type { SqlRunner, Wait } from './db/sql-runner.js';
import { andThen } from './db/store-api.js';
import { FeedbackStore } from './feedback/feedback-store.js';
import { MonitorStore } from './monitors/monitor-store.js';
import { FileStore } from './objects/file-store.js';
import { ObjectStore } from './objects/object-store.js';
import { QueueStore } from './queues/queue-store.js';
import { TableStore } from './tables/table-store.js';
import { TrainingStore } from './training/training-store.js';

/** Records read per page by `listCalls`. */
const LIST_PAGE = 500;

/** What a store is made of: one store per resource, answering values (SQLite) or Promises (PostgreSQL). */
export interface StoreParts {
  readonly calls: CallStore;
  readonly feedback: FeedbackStore;
  readonly tables: TableStore;
  readonly training: TrainingStore;
  readonly objects: ObjectStore;
  readonly files: FileStore;
  readonly monitors: MonitorStore;
  readonly queues: QueueStore;
  /** The SQLite connection (on SQLite). */
  readonly sqlite?: Database.Database;
  /** The PostgreSQL pools (on PostgreSQL). */
  readonly pg?: PgDatabase;
}

/**
 * The resource stores of one database over its engine's runner: one class each, for both engines.
 * @param calls - the engine's call cursors and overview statements.
 * @param deps - the call store's prices and `strictOrder`.
 * @param connection - the SQLite connection or the PostgreSQL pools.
 */
export function engineParts<W extends Wait>(
  sql: SqlRunner<W>,
  calls: CallEngine<W>,
  deps: Pick<CallStoreDeps<W>, 'prices' | 'strictOrder'>,
  connection: Pick<StoreParts, 'sqlite' | 'pg'>,
) {
  const stores = {
    feedback: new FeedbackStore(sql), tables: new TableStore(sql), objects: new ObjectStore(sql),
    training: new TrainingStore(sql), files: new FileStore(sql), monitors: new MonitorStore(sql), queues: new QueueStore(sql),
  };
  return { calls: new CallStore(sql, calls, { ...deps, ...stores }), ...stores, ...connection };
}

/** The connection (SQLite) or pools (PostgreSQL) a store closes last. */
type Closable = { readonly closed: boolean; close(): unknown };

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

/**
 * The database of a server: `Store` (SQLite, {@link openStore}) or `PgStore` (PostgreSQL, {@link openPgStore}).
 * Every method answers a Promise.
 */
export abstract class ServerStore {
  /** `sqlite` or `postgres`. */
  abstract readonly engine: 'sqlite' | 'postgres';
  /** Names of the migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly string[];
  readonly #calls: CallStore;
  readonly #db: Closable;

  /**
   * @param parts - the engine's resource stores ({@link engineParts}).
   * @param db - the connection (SQLite) or pools (PostgreSQL), closed last by `close()`.
   * @param appliedMigrations - names of the migrations this open applied.
   */
  protected constructor(parts: StoreParts, db: Closable, appliedMigrations: readonly string[]) {
    PARTS.set(this, parts);
    this.#calls = parts.calls;
    this.#db = db;
    this.appliedMigrations = appliedMigrations;
  }

  /** True once `close()` ran. */
  get closed(): boolean {
    return this.#db.closed;
  }

  /**
   * Stores a call start (upsert on project_id + id); `id` and `trace_id` generated (UUIDv7) when absent.
   * @returns `{id, trace_id}` of the call.
   * @see spec endpoint 7, "Start a call"
   */
  async startCall(start: StartInput): Promise<CallStartRes> {
    return this.#calls.startCall(start);
  }

  /** Stores a call end (upsert on project_id + id); works before the start has arrived. @returns `{}`. */
  async endCall(end: EndInput): Promise<CallEndRes> {
    return this.#calls.endCall(end);
  }

  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none. Repeating an item
   * never duplicates a call.
   * @returns one result per item, in order: `{id, trace_id}` for a start, `{}` for an end.
   * @throws the first failing write's error; nothing of the batch is stored then.
   * @see spec endpoint 5, "Start calls in batch"
   */
  async upsertBatch(items: readonly UpsertItem[]): Promise<(CallStartRes | CallEndRes)[]> {
    return this.#calls.upsertBatch(items);
  }

  /**
   * Opens a cursor over the calls matching a stream query. Close it (or read it to the end) when done.
   * @param query - a validated `CallsQueryReq` body.
   * @throws QueryError for an unknown sort or query field (the app answers 422).
   * @see spec endpoint 3, "Stream-query calls"
   */
  async queryCalls(query: CallsQuery): Promise<CallCursorApi<WireRecord>> {
    return this.#calls.queryCalls(query);
  }

  /**
   * Stores (or renames) users, user id → user name, for stream_query `include_usernames`, all or none.
   * @throws TypeError naming the user id when an id or a name is empty.
   */
  async setUsers(users: Record<string, string>): Promise<void> {
    await this.#calls.setUsers(users);
  }

  /** Reads every call matching a query into an array (convenient for small results and tests). */
  async listCalls(query: CallsQuery): Promise<WireRecord[]> {
    const cursor = await this.queryCalls(query);
    const out: WireRecord[] = [];
    try {
      for (let page = await cursor.next(LIST_PAGE); page.length > 0; page = await cursor.next(LIST_PAGE)) out.push(...page);
    } finally {
      await cursor.close();
    }
    return out;
  }

  /** One started call by id, or undefined (also while only its end has arrived). */
  async getCall(projectId: string, id: string): Promise<StoredCallRecord | undefined> {
    return this.#calls.getCall(projectId, id);
  }

  /** Number of stored rows of a project, including ends still waiting for their start. */
  async countRows(projectId: string): Promise<number> {
    return this.#calls.countRows(projectId);
  }

  /** Closes open cursors, then the database. Idempotent. */
  async close(): Promise<void> {
    if (!this.#db.closed) await andThen(this.#calls.close(), () => this.#db.close());
  }
}
