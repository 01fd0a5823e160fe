/**
 * The calls of one database (spec endpoints 7, 5 and 3): idempotent writes, stream-query cursors, and the
 * `users` table behind `include_usernames`. The only code that runs SQL on `calls`, `call_refs` and `users`.
 * @module
 */
import type Database from 'better-sqlite3';
import { type StatementCache, statementCache } from '../db/statement-cache.js';
import { type CallCursor, mapCursor, sqliteCursor } from './call-cursor.js';
import type { WireRecord } from './columns.js';
import { compileCallsQuery, type CallsQuery } from './query-sql.js';
import { sqliteRunner } from '../db/sql-runner.js';
import { type CallStoreDeps, CallStoreCommon, LIST_PAGE } from './call-store-common.js';
import type { CallStoreApi } from './call-store-api.js';
import { overviewOn, type OverviewResult } from './overview.js';
import type { OverviewQuery } from './overview-sql.js';

/** What a call store needs besides its connection. */
export interface CallStoreOptions extends CallStoreDeps<'sync'> {
  /** The database file (file cursors open their own read connection to it), or `:memory:`. */
  path: string;
}

/**
 * Calls of every project in one SQLite database; each method's contract is on `CallStoreApi`. Methods are synchronous:
 * a batch is written without yielding the event loop.
 */
export class CallStore extends CallStoreCommon<'sync'> implements CallStoreApi {
  private readonly statements: StatementCache;
  private readonly cursors = new Set<CallCursor<unknown>>();

  /**
   * @param db - the read-write connection, migrated.
   * @param options - database path, prices and the feedback store.
   */
  constructor(db: Database.Database, private readonly options: CallStoreOptions) {
    super(sqliteRunner(db), options);
    this.statements = statementCache(db);
  }

  /**
   * Opens a cursor over the calls matching a stream query: on a file, a snapshot with its own read
   * connection; in memory, one LIMIT/OFFSET page per read on this connection.
   *
   * @throws QueryError for an unknown sort, query or column field (the app answers 422).
   */
  queryCalls(query: CallsQuery): CallCursor<WireRecord> {
    const compiled = compileCallsQuery(query);
    const pipeline = this.pipeline(query);
    const onClose = (): void => void this.cursors.delete(cursor);
    const cursor = sqliteCursor(this.options.path, this.statements.prepare, compiled, onClose);
    this.cursors.add(cursor);
    return mapCursor(cursor, pipeline);
  }

  listCalls(query: CallsQuery): WireRecord[] {
    const cursor = this.queryCalls(query);
    const out: WireRecord[] = [];
    for (let page = cursor.next(LIST_PAGE); page.length > 0; page = cursor.next(LIST_PAGE)) out.push(...page);
    cursor.close();
    return out;
  }

  /** Closes the open cursors and forgets prepared statements (before the connection closes). */
  close(): void {
    for (const cursor of [...this.cursors]) cursor.close();
    this.statements.clear();
  }

  overview(query: OverviewQuery): OverviewResult {
    return overviewOn(this.sql, query, this.options.prices);
  }
}
