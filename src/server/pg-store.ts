/**
 * `PgStore`: the server's database on PostgreSQL (`weft serve --db postgres://...`), one store per resource over
 * one connection pool; several servers may share the database.
 * @module
 */
import { openPgDatabase, type PgDatabase } from './db/pg-database.js';
import { PgCallStore } from './calls/pg-call-store.js';
import { pgRunner } from './db/sql-runner.js';
import { EngineStore, resourceStores } from './server-store.js';
import { storePrices, type StoreOptions } from './store.js';

/** The server's database on PostgreSQL. Create with {@link openPgStore}. */
export class PgStore extends EngineStore {
  /** The engine: PostgreSQL. */
  readonly engine = 'postgres' as const;
  readonly #db: PgDatabase;
  readonly #calls: PgCallStore;

  /** Use {@link openPgStore}. */
  private constructor(db: PgDatabase, options: StoreOptions) {
    const stores = resourceStores(pgRunner(db));
    const calls = new PgCallStore(db, {
      prices: storePrices(options), feedback: stores.feedback, objects: stores.objects, tables: stores.tables, strictOrder: options.strictOrder,
    });
    super({ calls, ...stores, pg: db }, db.appliedMigrations);
    this.#db = db;
    this.#calls = calls;
  }

  /** True once {@link PgStore.close} ran. */
  get closed(): boolean {
    return this.#db.closed;
  }

  /** Closes open cursors, then the pool. Idempotent. */
  async close(): Promise<void> {
    if (this.#db.closed) return;
    await this.#calls.close();
    await this.#db.close();
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
