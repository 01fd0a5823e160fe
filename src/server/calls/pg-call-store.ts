/**
 * The calls of one PostgreSQL database (spec endpoints 7, 5 and 3, the Weave-compat edits, OTLP ingest): the
 * PostgreSQL implementation of `CallStoreApi`, with the same answers as the SQLite `CallStore`. Several servers may
 * write and read one database at once. The only PostgreSQL code that runs SQL on `calls`, `call_refs`,
 * `call_renames` and `users`.
 * @module
 */
import type { PgDatabase } from '../db/pg-database.js';
import { pgRunner } from '../db/sql-runner.js';
import type { CallCursorApi, CallStoreApi } from './call-store-api.js';
import type { WireRecord } from './columns.js';
import { openPgCursor } from './pg-call-cursor.js';
import { mapCursor } from './call-cursor.js';
import { compilePgCallsQuery } from './pg-query-sql.js';
import type { CallsQuery } from './query-sql.js';
import type { StoredCallRecord } from './records.js';
import { type CallStoreDeps, CallStoreCommon, LIST_PAGE } from './call-store-common.js';
import { overviewOn, type OverviewResult } from './overview.js';
import type { OverviewQuery } from './overview-sql.js';

/** Calls of every project in one PostgreSQL database; each method's contract is on `CallStoreApi`. Every method answers a Promise. */
export class PgCallStore extends CallStoreCommon<'async'> implements CallStoreApi {
  private readonly cursors = new Set<CallCursorApi<unknown>>();

  /**
   * @param db - the open, migrated database.
   * @param options - prices, the feedback lookup, strictOrder.
   */
  constructor(private readonly db: PgDatabase, options: CallStoreDeps<'async'>) {
    super(pgRunner(db), options);
  }

  /**
   * Opens a cursor over the calls matching a stream query: a snapshot read through a server-side cursor. When
   * `signal` aborts (the client went away), the running statement is cancelled (see `openPgCursor`).
   * @throws QueryError for an unknown sort, query or column field (the app answers 422), before any connection is taken.
   */
  async queryCalls(query: CallsQuery, signal?: AbortSignal): Promise<CallCursorApi<WireRecord>> {
    const compiled = compilePgCallsQuery(query);
    const pipeline = this.pipeline(query);
    // onClose may run before openPgCursor returns (a cursor that failed to open): nothing to forget then
    let inner: CallCursorApi<StoredCallRecord> | undefined;
    inner = await openPgCursor(this.db.cursorPool, compiled, {
      onClose: () => void (inner && this.cursors.delete(inner)),
      cancelPool: this.db.pool,
      signal,
      statementTimeoutMs: this.db.statementTimeoutMs,
    });
    const cursor = inner;
    this.cursors.add(cursor);
    return mapCursor(cursor, pipeline);
  }

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

  async overview(query: OverviewQuery): Promise<OverviewResult> {
    return overviewOn(this.sql, query, this.deps.prices);
  }

  /** Closes the open cursors (before the pool ends). */
  async close(): Promise<void> {
    await Promise.all([...this.cursors].map((c) => Promise.resolve(c.close()).catch(() => {})));
  }
}
