/**
 * SQLite persistence of the local server: open + migrate, idempotent call writes, and query cursors.
 * @module
 */
import Database from 'better-sqlite3';
import type { CallEndRes, CallStartRes } from '../schema/calls.js';
import { type EndInput, type StartInput, type UpsertItem, writeItems } from './call-writes.js';
import { type CallCursor, pagedCursor, snapshotCursor } from './cursor.js';
import { migrate } from './migrations.js';
import { compileCallsQuery, type CallsQuery } from './query-sql.js';
import { CALL_COLUMNS, type CallRow, rowToRecord, type StoredCallRecord } from './records.js';
import type { WireRecord } from './columns.js';
import { mapCursor } from './cursor.js';
import { DEFAULT_PRICES, checkPriceTable, type PriceTable } from './prices.js';
import { recordPipeline } from './record-pipeline.js';
import { mapIntoMemory } from './mmap.js';
import { registerSqlFunctions } from './sql-functions.js';
import { upsertUsers } from './users.js';

export type { UpsertItem };

/** Prepared statements kept per connection; past this many distinct SQL texts the cache starts over. */
const STATEMENT_CACHE_SIZE = 256;

/** Options of {@link openStore} (and `startServer`). */
export interface StoreOptions {
  /**
   * Model prices for stream_query `include_costs`, in USD per 1M tokens, merged over (and replacing by
   * model name) the built-in `DEFAULT_PRICES`. @defaultValue `DEFAULT_PRICES`
   */
  prices?: PriceTable;
  /** Users to store at open (user id → user name), for `include_usernames`. @defaultValue none */
  users?: Record<string, string>;
}

/** The call store over one SQLite database. Create with {@link openStore}. Methods are synchronous. */
export class Store {
  /** Names of the migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly string[];
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly cursors = new Set<CallCursor<unknown>>();
  private readonly prices: PriceTable;
  private readonly writeBatch: (items: readonly UpsertItem[]) => (CallStartRes | CallEndRes)[];
  private readonly prepare = (sql: string): Database.Statement => {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  };

  /**
   * @param path - a file path, or `:memory:`.
   * @param options - prices and users; see {@link StoreOptions}.
   * @throws the SQLite error when the file cannot be opened or a migration fails; TypeError for bad options.
   */
  constructor(readonly path: string, options: StoreOptions = {}) {
    this.prices = { ...DEFAULT_PRICES, ...checkPriceTable(options.prices ?? {}) };
    this.db = new Database(path);
    this.db.pragma('busy_timeout = 5000');
    if (!this.memory) this.db.pragma('journal_mode = WAL');
    if (!this.memory) mapIntoMemory(this.db);
    // WAL + NORMAL: commits skip the fsync (checkpoints still sync); a power cut may lose the last commits, never corrupts.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.appliedMigrations = migrate(this.db);
    registerSqlFunctions(this.db);
    if (options.users) upsertUsers(this.db, options.users);
    this.writeBatch = this.db.transaction((items: readonly UpsertItem[]) => writeItems(this.prepare, items));
  }

  /** True for an in-memory database (`:memory:` or empty path). */
  get memory(): boolean {
    return this.path === ':memory:' || this.path === '';
  }

  /** True once {@link Store.close} ran. */
  get closed(): boolean {
    return !this.db.open;
  }

  /** @internal The open connection, for the server's other stores (tables, trajectories, ...) sharing this database. */
  get connection(): Database.Database {
    return this.db;
  }

  /**
   * Stores a call start (upsert on project_id + id). Generates `id` and `trace_id` (UUIDv7) when absent.
   * @returns `{id, trace_id}` of the call.
   * @see spec endpoint 7, "Start a call"
   */
  startCall(start: StartInput): CallStartRes {
    return this.writeBatch([{ mode: 'start', req: { start } }])[0] as CallStartRes;
  }

  /**
   * Stores a call end (upsert on project_id + id); works before the start has arrived.
   * @returns `{}`.
   */
  endCall(end: EndInput): CallEndRes {
    return this.writeBatch([{ mode: 'end', req: { end } }])[0] as CallEndRes;
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
    return this.writeBatch(items);
  }

  /**
   * Opens a cursor over the calls matching a stream query. Close it (or read it to the end) when done.
   *
   * @param query - a validated `CallsQueryReq` body.
   * @throws QueryError for an unknown sort or query field (the app answers 422).
   * @see spec endpoint 3, "Stream-query calls"
   */
  queryCalls(query: CallsQuery): CallCursor<WireRecord> {
    const compiled = compileCallsQuery(query);
    const pipeline = recordPipeline(query, { db: this.db, prices: this.prices });
    const onClose = (): void => void this.cursors.delete(cursor);
    const cursor = this.memory ? pagedCursor(this.prepare, compiled, onClose) : snapshotCursor(this.path, compiled, onClose);
    this.cursors.add(cursor);
    return mapCursor(cursor, pipeline);
  }

  /** Stores (or renames) users, user id → user name, for stream_query `include_usernames`. */
  setUsers(users: Record<string, string>): void {
    upsertUsers(this.db, users);
  }

  /** Reads every call matching a query into an array (convenient for small results and tests). */
  listCalls(query: CallsQuery): WireRecord[] {
    const cursor = this.queryCalls(query);
    const out: WireRecord[] = [];
    for (let page = cursor.next(500); page.length > 0; page = cursor.next(500)) out.push(...page);
    cursor.close();
    return out;
  }

  /** One started call by id, or undefined (also while only its end has arrived). */
  getCall(projectId: string, id: string): StoredCallRecord | undefined {
    const sql = `SELECT ${CALL_COLUMNS.join(', ')} FROM calls WHERE project_id = ? AND id = ? AND started_at IS NOT NULL`;
    const row = this.prepare(sql).get(projectId, id) as CallRow | undefined;
    return row && rowToRecord(row);
  }

  /** Number of stored rows of a project, including ends still waiting for their start. */
  countRows(projectId: string): number {
    return (this.prepare('SELECT count(*) AS n FROM calls WHERE project_id = ?').get(projectId) as { n: number }).n;
  }

  /** Closes open cursors and the database. Idempotent. */
  close(): void {
    for (const cursor of [...this.cursors]) cursor.close();
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}

/**
 * Opens (creating if needed) a call store and applies pending migrations. Files use WAL journaling.
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
