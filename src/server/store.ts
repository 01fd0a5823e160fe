/**
 * The public `Store`: one SQLite database of the local server, opened and migrated, holding one store per
 * resource (calls, feedback, tables, training, objects, files); its call methods are those of `ServerStore`.
 * @module
 */
import type Database from 'better-sqlite3';
import { CallStore } from './calls/call-store.js';
import { DEFAULT_PRICES, checkPriceTable, type PriceTable } from './calls/prices.js';
import { isMemoryPath, openDatabase } from './db/open-database.js';
import { FeedbackStore } from './feedback/feedback-store.js';
import { FileStore } from './objects/file-store.js';
import { ObjectStore } from './objects/object-store.js';
import { TableStore } from './tables/table-store.js';
import { TrainingStore } from './training/training-store.js';
import { EngineStore } from './server-store.js';

export type { UpsertItem } from './calls/call-fields.js';

/** Options of {@link openStore} and {@link openPgStore} (and `startServer`). */
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
   * @defaultValue false
   */
  strictOrder?: boolean;
}

/** `options.prices` merged over `DEFAULT_PRICES`. @throws TypeError for a malformed price table. */
export function storePrices(options: StoreOptions): PriceTable {
  return { ...DEFAULT_PRICES, ...checkPriceTable(options.prices ?? {}) };
}

/**
 * The server's database on SQLite. Create with {@link openStore}. Its resource stores are synchronous (a batch is
 * written without yielding the event loop); the methods of `ServerStore` answer Promises.
 */
export class Store extends EngineStore {
  /** The engine: SQLite. */
  readonly engine = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #calls: CallStore;

  /**
   * @param path - a file path, or `:memory:`.
   * @param options - prices and users; see {@link StoreOptions}.
   * @throws the SQLite error when the file cannot be opened or a migration fails; TypeError for bad options.
   */
  constructor(readonly path: string, options: StoreOptions = {}) {
    const prices = storePrices(options);
    const { connection, appliedMigrations } = openDatabase(path);
    const feedback = new FeedbackStore(connection);
    const [objects, tables] = [new ObjectStore(connection), new TableStore(connection)];
    const calls = new CallStore(connection, { path, prices, feedback, objects, tables, strictOrder: options.strictOrder });
    super({ calls, feedback, tables, training: new TrainingStore(connection), objects, files: new FileStore(connection), sqlite: connection }, appliedMigrations);
    this.#db = connection;
    this.#calls = calls;
    if (options.users) calls.setUsers(options.users);
  }

  /** True for an in-memory database (`:memory:` or empty path). */
  get memory(): boolean {
    return isMemoryPath(this.path);
  }

  /** True once {@link Store.close} ran. */
  get closed(): boolean {
    return !this.#db.open;
  }

  /** Closes open cursors and the database. Idempotent. */
  async close(): Promise<void> {
    this.#calls.close();
    if (this.#db.open) this.#db.close();
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
 * await store.startCall({ project_id: 'acme/demo', op_name: 'add', started_at: new Date().toISOString(), attributes: {}, inputs: {} });
 * ```
 */
export function openStore(path = 'weft.db', options: StoreOptions = {}): Store {
  return new Store(path, options);
}
