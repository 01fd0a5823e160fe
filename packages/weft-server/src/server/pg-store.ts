/**
 * `PgStore`: the server's database on PostgreSQL (`weft serve --db postgres://...`), one store per resource over
 * one connection pool; several servers may share the database. The PostgreSQL leaf of the calls (its cursors).
 * @module
 */
import { openPgDatabase, type PgDatabase } from './db/pg-database.js';
import type { CallEngine } from './calls/call-store.js';
import { openPgCursor } from './calls/query/pg-call-cursor.js';
import { compilePgCallsQuery } from './calls/query/pg-query-sql.js';
import { pgRunner } from './db/sql-runner.js';
import { engineParts, ServerStore } from './server-store.js';
import { storePrices, type StoreOptions } from './store.js';

/** The PostgreSQL leaf of the calls: a server-side cursor in a snapshot (see `openPgCursor`). */
export function pgCallEngine(db: PgDatabase): CallEngine<'async'> {
  return {
    cursor(query) {
      const compiled = compilePgCallsQuery(query);
      const { cursorPool, pool: cancelPool, statementTimeoutMs } = db;
      return (onClose, signal) => openPgCursor(cursorPool, compiled, { onClose, signal, cancelPool, statementTimeoutMs });
    },
  };
}

/** The server's database on PostgreSQL. Create with {@link openPgStore}. */
export class PgStore extends ServerStore {
  /** The engine: PostgreSQL. */
  readonly engine = 'postgres' as const;

  /** Use {@link openPgStore}. */
  private constructor(db: PgDatabase, options: StoreOptions) {
    const deps = { prices: storePrices(options), strictOrder: options.strictOrder };
    super(engineParts(pgRunner(db), pgCallEngine(db), deps, { pg: db }), db, db.appliedMigrations);
  }

  /** @see {@link openPgStore} */
  static async open(url: string, options: StoreOptions = {}): Promise<PgStore> {
    const db = await openPgDatabase(url);
    try {
      const store = new PgStore(db, options);
      if (options.users) await store.setUsers(options.users);
      return store;
    } catch (err) {
      await db.close();
      throw err;
    }
  }
}

/**
 * Opens a PostgreSQL store: connects, applies pending migrations (once, under an advisory lock, when several
 * servers start together) and stores `options.users`.
 *
 * @param url - `postgres://user:password@host:port/database`.
 * @param options - prices, users, strictOrder; see {@link StoreOptions}.
 * @throws the connection or migration error; TypeError for bad options.
 */
export function openPgStore(url: string, options: StoreOptions = {}): Promise<PgStore> {
  return PgStore.open(url, options);
}
