/**
 * The calls of one PostgreSQL database (spec endpoints 7, 5 and 3, the Weave-compat edits, OTLP ingest): the
 * PostgreSQL implementation of `CallStoreApi`, with the same answers as the SQLite `CallStore`. Several servers may
 * write and read one database at once. The only PostgreSQL code that runs SQL on `calls`, `call_refs`,
 * `call_renames` and `users`.
 * @module
 */
import type pg from 'pg';
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import type { FeedbackRecord } from '../../schema/feedback.js';
import { inTransaction, type PgDatabase, pgRows } from '../db/pg-database.js';
import type { MaybePromise } from '../db/store-api.js';
import { HttpError } from '../http/http-error.js';
import type { CallCursorApi, CallStoreApi } from './call-store-api.js';
import type { EndInput, StartInput, UpsertItem } from './call-writes.js';
import type { WireRecord } from './columns.js';
import { openPgCursor } from './pg-call-cursor.js';
import { pgLockForRename, pgStartedCalls, pgWriteItems } from './pg-call-writes.js';
import { PG_DESCENDANTS_FAILED_SQL } from './pg-descendant-errors.js';
import { compilePgCallsQuery } from './pg-query-sql.js';
import type { PriceTable } from './prices.js';
import type { CallsQuery } from './query-sql.js';
import { recordPipeline } from './record-pipeline.js';
import { type CallRow, rowToRecord, type StoredCallRecord } from './records.js';
import { PG_DIALECT } from '../db/dialect.js';
import { callsByIds, checkedUsers, COUNT_ROWS, endBatch, GET_CALL, LIST_PAGE, PROJECT_IDS, startBatch, usernamesSql } from './call-store-common.js';
import { endsBeforeStart } from './strict-order.js';
import { overviewResult, type OverviewResult } from './overview.js';
import type { OverviewQuery } from './overview-sql.js';
import { pgOverviewRows } from './pg-overview-sql.js';
import type { ObjectStoreApi } from '../objects/object-store-api.js';
import type { TableStoreApi } from '../tables/table-store-api.js';
import { rowsQuery, rowVals } from './object-ref-reads.js';

const CALLS_BY_IDS = callsByIds(PG_DIALECT);
const PG_GET_CALL = PG_DIALECT.sql(GET_CALL);
const PG_COUNT_ROWS = PG_DIALECT.sql(COUNT_ROWS);
const UPSERT_USERS = `INSERT INTO users (id, username) SELECT * FROM unnest($1::text[], $2::text[])
  ON CONFLICT (id) DO UPDATE SET username = excluded.username`;
const USERNAMES = usernamesSql(PG_DIALECT);
const RENAME = 'UPDATE calls SET display_name = $3 WHERE project_id = $1 AND id = $2 AND started_at IS NOT NULL';
const KEEP_RENAME = `INSERT INTO call_renames (project_id, call_id, display_name) VALUES ($1, $2, $3)
  ON CONFLICT (project_id, call_id) DO UPDATE SET display_name = excluded.display_name`;
const SUBTREE = `WITH RECURSIVE doomed(id) AS (
    SELECT v COLLATE "C" FROM unnest($2::text[]) AS v
    UNION SELECT c.id FROM calls c JOIN doomed d ON c.parent_id = d.id WHERE c.project_id = $1
  )`;
const DELETE_SUBTREES = `${SUBTREE}, refs AS (DELETE FROM call_refs WHERE project_id = $1 AND call_id IN (SELECT id FROM doomed)),
  renames AS (DELETE FROM call_renames WHERE project_id = $1 AND call_id IN (SELECT id FROM doomed))
  DELETE FROM calls WHERE project_id = $1 AND id IN (SELECT id FROM doomed)`;
/** Attempts of a batch whose transaction PostgreSQL aborted to resolve a deadlock or serialization conflict. */
const ATTEMPTS = 4;
/** SQLSTATEs worth retrying the whole transaction for: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/** What a PostgreSQL call store needs besides the database. */
export interface PgCallStoreOptions {
  /** Model prices for `include_costs`, merged over `DEFAULT_PRICES`. */
  prices: PriceTable;
  /** Feedback about calls of one project, by call id, oldest first (`include_feedback`). */
  feedbackFor(projectId: string, callIds: readonly string[]): MaybePromise<Map<string, FeedbackRecord[]>>;
  /** Refuse (422) a batch end whose call has no stored start (see `StoreOptions.strictOrder`). */
  strictOrder?: boolean;
  /** The objects and tables of the same database, for `expand_columns` of object refs. */
  objects: Pick<ObjectStoreApi, 'readVals'>;
  tables: Pick<TableStoreApi, 'query'>;
}

/** Runs `fn` in a transaction, again when PostgreSQL aborted it for a deadlock or serialization conflict. */
async function retrying<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, fn);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt < ATTEMPTS && code !== undefined && RETRYABLE.has(code)) continue;
      throw err; // text PostgreSQL cannot hold (U+0000) is answered 422 by the app's error handler (isUnstorableText)
    }
  }
}

/** Calls of every project in one PostgreSQL database; each method's contract is on `CallStoreApi`. Every method answers a Promise. */
export class PgCallStore implements CallStoreApi {
  private readonly cursors = new Set<CallCursorApi<unknown>>();
  orderRefusals = 0;

  /**
   * @param db - the open, migrated database.
   * @param options - prices, the feedback lookup, strictOrder.
   */
  constructor(private readonly db: PgDatabase, private readonly options: PgCallStoreOptions) {}

  async startCall(start: StartInput): Promise<CallStartRes> {
    return (await this.upsertBatch(startBatch(start)))[0] as CallStartRes;
  }

  async endCall(end: EndInput): Promise<CallEndRes> {
    return (await this.upsertBatch(endBatch(end)))[0] as CallEndRes;
  }

  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none.
   * @throws HttpError 422 with `strictOrder`, naming each end whose call has no stored start; PostgreSQL's
   *   error for text it cannot store (U+0000), which the app answers 422.
   */
  async upsertBatch(items: readonly UpsertItem[]): Promise<(CallStartRes | CallEndRes)[]> {
    if (this.options.strictOrder) {
      const refused = endsBeforeStart(await pgStartedCalls(this.db.pool, items), items);
      this.orderRefusals += refused.length;
      if (refused.length > 0) throw HttpError.validation(refused);
    }
    return retrying(this.db.pool, (client) => pgWriteItems(client, items));
  }

  /**
   * Opens a cursor over the calls matching a stream query: a snapshot read through a server-side cursor. When
   * `signal` aborts (the client went away), the running statement is cancelled (see `openPgCursor`).
   * @throws QueryError for an unknown sort, query or column field (the app answers 422), before any connection is taken.
   */
  async queryCalls(query: CallsQuery, signal?: AbortSignal): Promise<CallCursorApi<WireRecord>> {
    const compiled = compilePgCallsQuery(query);
    const pipeline = recordPipeline(query, {
      prices: this.options.prices,
      usernames: (ids) => this.usernames(ids),
      feedbackFor: (projectId, callIds) => this.options.feedbackFor(projectId, callIds),
      callsById: (projectId, ids) => this.callsById(projectId, ids),
      objectVals: (projectId, keys) => this.options.objects.readVals(projectId, keys),
      tableRows: async (projectId, digest, rows) => rowVals(await this.options.tables.query(rowsQuery(projectId, digest, rows))),
      descendantFailed: (projectId, ids) => this.descendantFailed(projectId, ids),
    });
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
    return {
      next: async (max) => {
        const page = await cursor.next(max);
        return page.length === 0 ? [] : pipeline(page);
      },
      close: () => cursor.close(),
    };
  }

  /**
   * Sets the `display_name` of a call (`null` clears it); a call whose start has not arrived gets it when it does,
   * also when that start is being written concurrently through another server (a project advisory lock, pg-call-writes.ts).
   */
  async updateCall(projectId: string, id: string, displayName: string | null): Promise<void> {
    await retrying(this.db.pool, async (client) => {
      // waits for the batches starting calls of the project through any server to commit, so either sees the other
      await pgLockForRename(client, projectId);
      if ((await client.query(RENAME, [projectId, id, displayName])).rowCount === 0) await client.query(KEEP_RENAME, [projectId, id, displayName]);
    });
  }

  /** Deletes calls with all their descendants (and their refs and pending renames), in one transaction. @returns how many calls were deleted. */
  async deleteCalls(projectId: string, ids: readonly string[]): Promise<number> {
    return retrying(this.db.pool, async (client) => (await client.query(DELETE_SUBTREES, [projectId, ids])).rowCount ?? 0);
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

  async getCall(projectId: string, id: string): Promise<StoredCallRecord | undefined> {
    const [row] = await pgRows<CallRow>(this.db.pool, PG_GET_CALL, [projectId, id]);
    return row && rowToRecord(row);
  }

  async countRows(projectId: string): Promise<number> {
    return (await pgRows<{ n: number }>(this.db.pool, PG_COUNT_ROWS, [projectId]))[0]!.n;
  }

  async setUsers(users: Readonly<Record<string, string>>): Promise<void> {
    const entries = checkedUsers(users);
    if (entries.length > 0) await retrying(this.db.pool, (client) => client.query(UPSERT_USERS, [entries.map((e) => e[0]), entries.map((e) => e[1])]));
  }

  async overview(query: OverviewQuery): Promise<OverviewResult> {
    return overviewResult(query, await pgOverviewRows(this.db.pool, query), this.options.prices);
  }

  async projectIds(): Promise<string[]> {
    return (await pgRows<{ id: string }>(this.db.pool, PROJECT_IDS)).map((r) => r.id);
  }

  /** Closes the open cursors (before the pool ends). */
  async close(): Promise<void> {
    await Promise.all([...this.cursors].map((c) => Promise.resolve(c.close()).catch(() => {})));
  }

  private async usernames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await pgRows<{ id: string; username: string }>(this.db.pool, USERNAMES, [[...new Set(ids)]]);
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  private async descendantFailed(projectId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await pgRows<{ root: string }>(this.db.pool, PG_DESCENDANTS_FAILED_SQL, [projectId, ids]);
    return new Set(rows.map((r) => r.root));
  }

  private async callsById(projectId: string, ids: readonly string[]): Promise<StoredCallRecord[]> {
    return (await pgRows<CallRow>(this.db.pool, CALLS_BY_IDS, [projectId, ids])).map(rowToRecord);
  }
}
