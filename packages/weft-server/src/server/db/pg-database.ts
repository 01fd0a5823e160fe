/**
 * Opens the server's PostgreSQL database (`weft serve --db postgres://...`): a connection pool, the migrations
 * applied once under an advisory lock (several servers may start together), and a small typed query helper.
 * @module
 */
import pg from 'pg';
import type { Migration } from './migrations.js';
import { PG_MIGRATIONS } from './pg-migrations.js';

/** Advisory lock key held while migrating (per database): the bytes of `weft` as an integer. */
export const MIGRATION_LOCK_KEY = 0x77656674;

/** A connection the helpers run on: the pool, or one client inside a transaction. */
export type PgQueryable = pg.Pool | pg.PoolClient;

/**
 * Result parsers of the pool: `int8` and `numeric` as JS numbers (counts, sums; stored values stay below 2^53),
 * `json` and `jsonb` as their text (the stores parse it, as the SQLite stores parse their JSON text).
 */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    if (oid === 114 || oid === 3802) return (v: string) => v;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** An open PostgreSQL database. */
export interface PgDatabase {
  /** The pool every store of the server shares for writes and short reads. */
  readonly pool: pg.Pool;
  /**
   * A second pool for long reads: stream-query cursors, which hold a connection while a client reads, and feedback
   * stats, so they never starve writes. Its statements (a stats scan; each `DECLARE` and each `FETCH` of a page, not a
   * whole stream) are cut after {@link PgDatabase.statementTimeoutMs}.
   */
  readonly cursorPool: pg.Pool;
  /** PostgreSQL's `statement_timeout` of the long-read pool's connections, in ms (0: none). */
  readonly statementTimeoutMs: number;
  /** Names of the migrations this open applied (empty when the schema was current, or another server applied them). */
  readonly appliedMigrations: string[];
  /**
   * Runs `fn` in one transaction on one client: committed when it resolves, rolled back when it throws, run again
   * (up to {@link ATTEMPTS} times) when PostgreSQL aborted it for a deadlock or a serialization conflict.
   */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Ends the pool. Idempotent. */
  close(): Promise<void>;
  /** True once {@link PgDatabase.close} ran. */
  readonly closed: boolean;
}

/**
 * Runs a parameterized query and returns its rows.
 *
 * @param db - the pool or a transaction's client.
 * @param sql - SQL with `$1`, `$2`, ... placeholders; values never enter the text.
 * @param params - the values, in placeholder order.
 */
export async function pgRows<R>(db: PgQueryable, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  return (await db.query(sql, params as unknown[])).rows as R[];
}

/**
 * Cancels the statement a backend is running (`pg_cancel_backend`), sent on a connection of `pool`; the statement
 * then fails with SQLSTATE 57014. A backend running nothing is unaffected.
 *
 * @param pool - a pool of the same database and role (or one allowed to signal it).
 * @param pid - the backend's process id (`client.processID` of node-postgres).
 * @returns whether PostgreSQL signalled the backend (false when it no longer exists).
 */
export async function cancelBackend(pool: pg.Pool, pid: number): Promise<boolean> {
  return (await pgRows<{ ok: boolean }>(pool, 'SELECT pg_cancel_backend($1) AS ok', [pid]))[0]?.ok === true;
}

/** Attempts of a transaction PostgreSQL aborted to resolve a deadlock or serialization conflict. */
const ATTEMPTS = 4;
/** SQLSTATEs worth running a whole transaction again for: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `fn` in a transaction on one client of `pool`, again when PostgreSQL aborted it for a deadlock or a
 * serialization conflict (up to {@link ATTEMPTS} times).
 * @throws what the last attempt of `fn` throws, after the rollback; text PostgreSQL cannot hold (U+0000) is answered
 *   422 by the app (isUnstorableText).
 */
async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      const code = (err as { code?: string }).code;
      if (attempt >= ATTEMPTS || code === undefined || !RETRYABLE.has(code)) throw err;
    } finally {
      client.release();
    }
  }
}

/**
 * Applies the migrations not yet recorded in `migrations`, each in its own transaction, while holding the
 * session advisory lock {@link MIGRATION_LOCK_KEY}: servers starting together wait for each other and the
 * later ones find the schema current.
 *
 * @returns the names of the migrations this call applied.
 * @throws the PostgreSQL error of a failing migration (that migration is rolled back; the lock is released).
 */
export async function migratePg(pool: pg.Pool, migrations: readonly Migration[] = PG_MIGRATIONS): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS migrations (
        id integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
      const done = new Set((await pgRows<{ id: number }>(client, 'SELECT id FROM migrations')).map((r) => r.id));
      for (const m of migrations) {
        if (done.has(m.id)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO migrations (id, name, applied_at) VALUES ($1, $2, $3)', [m.id, m.name, new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
        applied.push(m.name);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    client.release();
  }
  return applied;
}

/** Options of {@link openPgDatabase}. */
export interface PgDatabaseOptions {
  /** Most connections the pool opens. @defaultValue 10 */
  maxConnections?: number;
  /**
   * PostgreSQL's `statement_timeout` for the stream-query cursors, in ms: each statement (the `DECLARE` that plans the
   * query, each `FETCH` of one page) is cut after this long, so a runaway `$expr` cannot hold a backend for ever; a
   * long stream is many short statements and is never cut by it. 0 turns it off.
   * @defaultValue `WEFT_PG_STATEMENT_TIMEOUT_MS`, else {@link DEFAULT_STATEMENT_TIMEOUT_MS}
   */
  statementTimeoutMs?: number;
}

/**
 * Default `statement_timeout` of stream-query statements: 60 s. The slowest legitimate statement is the first
 * `FETCH` of a query sorted on a JSON path, which sorts every matching row before the first page; 60 s leaves
 * room for millions of rows on a loaded machine.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

/** The statement timeout from options, then the environment, then the default. @throws TypeError for a negative or non-integer value. */
function statementTimeout(option: number | undefined): number {
  const env = process.env['WEFT_PG_STATEMENT_TIMEOUT_MS'];
  const ms = option ?? (env ? Number(env) : DEFAULT_STATEMENT_TIMEOUT_MS);
  if (!Number.isInteger(ms) || ms < 0) {
    throw new TypeError(`statementTimeoutMs (WEFT_PG_STATEMENT_TIMEOUT_MS) must be a non-negative integer of ms, got ${String(option ?? env)}`);
  }
  return ms;
}

/**
 * Opens a pool on `url` and applies pending migrations.
 *
 * @param url - `postgres://user:password@host:port/database` (any libpq-style URL node-postgres accepts).
 * @throws the connection error (e.g. `ECONNREFUSED`, or PostgreSQL's "database ... does not exist") or a migration's error; the pool is ended then.
 *   TypeError for a bad `statementTimeoutMs`.
 */
export async function openPgDatabase(url: string, options: PgDatabaseOptions = {}): Promise<PgDatabase> {
  const statementTimeoutMs = statementTimeout(options.statementTimeoutMs);
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, types: TYPES });
  const cursorPool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, types: TYPES, statement_timeout: statementTimeoutMs });
  // An idle client's error (e.g. the server restarted) is reported on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  cursorPool.on('error', () => {});
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migratePg(pool);
  } catch (err) {
    await Promise.all([pool.end().catch(() => {}), cursorPool.end().catch(() => {})]);
    throw err;
  }
  let closing: Promise<void> | undefined;
  let closed = false;
  return {
    pool,
    cursorPool,
    statementTimeoutMs,
    appliedMigrations,
    transaction: (fn) => inTransaction(pool, fn),
    close() {
      closed = true;
      closing ??= Promise.all([pool.end(), cursorPool.end()]).then(() => {});
      return closing;
    },
    get closed() {
      return closed;
    },
  };
}
