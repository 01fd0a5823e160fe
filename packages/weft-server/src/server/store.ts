/**
 * The public `Store`: one SQLite database of the local server, opened and migrated, holding one store per
 * resource (calls, feedback, tables, training, objects, files); its call methods are those of `ServerStore`. The
 * SQLite leaf of the calls (its cursors).
 * @module
 */
import type Database from 'better-sqlite3';
import { sqliteCursor } from './calls/query/call-cursor.js';
import type { CallEngine } from './calls/call-store.js';
import { DEFAULT_PRICES, checkPriceTable, type PriceTable } from './calls/prices/price-table.js';
import { compileCallsQuery } from './calls/query/query-sql.js';
import { isMemoryPath, openDatabase } from './db/open-database.js';
import { sqliteRunner } from './db/sql-runner.js';
import { statementCache } from './db/statement-cache.js';
import { engineParts, ServerStore } from './server-store.js';

export type { UpsertItem } from './calls/write/call-fields.js';

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

/** The SQLite leaf of the calls: cursors (a snapshot on a file, LIMIT/OFFSET pages in memory). */
function sqliteCallEngine(connection: Database.Database, path: string): CallEngine<'sync'> {
  const prepare = statementCache(connection);
  return {
    cursor(query) {
      const compiled = compileCallsQuery(query);
      return (onClose) => sqliteCursor(path, prepare, compiled, onClose);
    },
  };
}

/**
 * The server's database on SQLite. Create with {@link openStore}. Its resource stores are synchronous (a batch is
 * written without yielding the event loop); the methods of `ServerStore` answer Promises.
 */
export class Store extends ServerStore {
  /** The engine: SQLite. */
  readonly engine = 'sqlite' as const;

  /**
   * @param path - a file path, or `:memory:`.
   * @param options - prices and users; see {@link StoreOptions}.
   * @throws the SQLite error when the file cannot be opened or a migration fails; TypeError for bad options.
   */
  constructor(readonly path: string, options: StoreOptions = {}) {
    const prices = storePrices(options);
    const { connection, appliedMigrations } = openDatabase(path);
    const deps = { prices, strictOrder: options.strictOrder };
    const parts = engineParts(sqliteRunner(connection), sqliteCallEngine(connection, path), deps, { sqlite: connection });
    super(parts, { get closed() { return !connection.open; }, close: () => connection.close() }, appliedMigrations);
    if (options.users) parts.calls.setUsers(options.users);
  }

  /** True for an in-memory database (`:memory:` or empty path). */
  get memory(): boolean {
    return isMemoryPath(this.path);
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
