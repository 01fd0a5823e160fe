/**
 * The calls of one database (spec endpoints 7, 5 and 3): idempotent writes, stream-query cursors, and the
 * `users` table behind `include_usernames`. The only code that runs SQL on `calls`, `call_refs` and `users`.
 * @module
 */
import { HttpError } from '../http/http-error.js';
import { endsBeforeStart } from './strict-order.js';
import type Database from 'better-sqlite3';
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import { isMemoryPath } from '../db/open-database.js';
import { type StatementCache, statementCache } from '../db/statement-cache.js';
import type { FeedbackStore } from '../feedback/feedback-store.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { TableStore } from '../tables/table-store.js';
import { rowsQuery, rowVals } from './object-ref-reads.js';
import { type CallCursor, mapCursor, pagedCursor, snapshotCursor } from './call-cursor.js';
import { type EndInput, type StartInput, type UpsertItem, writeItems } from './call-writes.js';
import { deleteSubtrees, renameCall } from './call-edit-writes.js';
import type { WireRecord } from './columns.js';
import type { PriceTable } from './prices.js';
import { compileCallsQuery, type CallsQuery } from './query-sql.js';
import { recordPipeline } from './record-pipeline.js';
import { type CallRow, rowToRecord, type StoredCallRecord } from './records.js';
import { SQLITE_DIALECT } from '../db/dialect.js';
import { callsByIds, checkedUsers, COUNT_ROWS, endBatch, GET_CALL, LIST_PAGE, PROJECT_IDS, STARTED, startBatch, usernamesSql } from './call-store-common.js';
import { DESCENDANTS_FAILED_SQL } from './descendant-errors.js';
import type { CallStoreApi } from './call-store-api.js';
import { overviewResult, type OverviewResult } from './overview.js';
import { type OverviewQuery, sqliteOverviewRows } from './overview-sql.js';

const CALLS_BY_IDS = callsByIds(SQLITE_DIALECT);
const UPSERT_USER = 'INSERT INTO users (id, username) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET username = excluded.username';
const USERNAMES = usernamesSql(SQLITE_DIALECT);

/** What a call store needs besides its connection. */
export interface CallStoreOptions {
  /** The database file (file cursors open their own read connection to it), or `:memory:`. */
  path: string;
  /** Model prices for `include_costs`, already merged over `DEFAULT_PRICES`. */
  prices: PriceTable;
  /** The feedback of the same database, for `include_feedback`. */
  feedback: FeedbackStore;
  /** The objects and tables of the same database, for `expand_columns` of object refs. */
  objects: Pick<ObjectStore, 'readVals'>;
  tables: Pick<TableStore, 'query'>;
  /** Refuse (422) a batch end whose call has no stored start (a testing aid, see `StoreOptions.strictOrder`). */
  strictOrder?: boolean;
}

/** Calls of every project in one SQLite database; each method's contract is on `CallStoreApi`. Methods are synchronous. */
export class CallStore implements CallStoreApi {
  private readonly statements: StatementCache;
  private readonly cursors = new Set<CallCursor<unknown>>();
  private readonly writeBatch: (items: readonly UpsertItem[]) => (CallStartRes | CallEndRes)[];

  /**
   * @param db - the read-write connection, migrated.
   * @param options - database path, prices and the feedback store.
   */
  constructor(private readonly db: Database.Database, private readonly options: CallStoreOptions) {
    this.statements = statementCache(db);
    const prepare = this.statements.prepare;
    this.writeBatch = db.transaction((items: readonly UpsertItem[]) => writeItems(prepare, items));
  }

  startCall(start: StartInput): CallStartRes {
    return this.writeBatch(startBatch(start))[0] as CallStartRes;
  }

  endCall(end: EndInput): CallEndRes {
    return this.writeBatch(endBatch(end))[0] as CallEndRes;
  }

  orderRefusals = 0;

  upsertBatch(items: readonly UpsertItem[]): (CallStartRes | CallEndRes)[] {
    if (this.options.strictOrder) {
      const refused = endsBeforeStart((projectId, id) => this.statements.prepare(STARTED).get(projectId, id) !== undefined, items);
      this.orderRefusals += refused.length;
      if (refused.length > 0) throw HttpError.validation(refused);
    }
    return this.writeBatch(items);
  }

  /**
   * Opens a cursor over the calls matching a stream query: on a file, a snapshot with its own read
   * connection; in memory, one LIMIT/OFFSET page per read on this connection.
   *
   * @throws QueryError for an unknown sort, query or column field (the app answers 422).
   */
  queryCalls(query: CallsQuery): CallCursor<WireRecord> {
    const compiled = compileCallsQuery(query);
    const pipeline = recordPipeline(query, {
      prices: this.options.prices,
      usernames: (ids) => this.usernames(ids),
      feedbackFor: (projectId, callIds) => this.options.feedback.forCalls(projectId, callIds),
      callsById: (projectId, ids) => this.callsById(projectId, ids),
      objectVals: (projectId, keys) => this.options.objects.readVals(projectId, keys),
      tableRows: (projectId, digest, rows) => rowVals(this.options.tables.query(rowsQuery(projectId, digest, rows))),
      descendantFailed: (projectId, ids) => this.descendantFailed(projectId, ids),
    });
    const onClose = (): void => void this.cursors.delete(cursor);
    const cursor = isMemoryPath(this.options.path)
      ? pagedCursor(this.statements.prepare, compiled, onClose)
      : snapshotCursor(this.options.path, compiled, onClose);
    this.cursors.add(cursor);
    return mapCursor(cursor, pipeline);
  }

  updateCall(projectId: string, id: string, displayName: string | null): void {
    this.db.transaction(() => renameCall(this.statements.prepare, projectId, id, displayName))();
  }

  deleteCalls(projectId: string, ids: readonly string[]): number {
    return this.db.transaction(() => deleteSubtrees(this.statements.prepare, projectId, ids))();
  }

  listCalls(query: CallsQuery): WireRecord[] {
    const cursor = this.queryCalls(query);
    const out: WireRecord[] = [];
    for (let page = cursor.next(LIST_PAGE); page.length > 0; page = cursor.next(LIST_PAGE)) out.push(...page);
    cursor.close();
    return out;
  }

  getCall(projectId: string, id: string): StoredCallRecord | undefined {
    const row = this.statements.prepare(GET_CALL).get(projectId, id) as CallRow | undefined;
    return row && rowToRecord(row);
  }

  countRows(projectId: string): number {
    return (this.statements.prepare(COUNT_ROWS).get(projectId) as { n: number }).n;
  }

  setUsers(users: Readonly<Record<string, string>>): void {
    const insert = this.statements.prepare(UPSERT_USER);
    const entries = checkedUsers(users);
    this.db.transaction(() => {
      for (const [id, name] of entries) insert.run(id, name);
    })();
  }

  /** Closes the open cursors and forgets prepared statements (before the connection closes). */
  close(): void {
    for (const cursor of [...this.cursors]) cursor.close();
    this.statements.clear();
  }

  /** Names of the user ids the users table knows (duplicates in `ids` are fine). */
  private usernames(ids: readonly string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows = this.statements.prepare(USERNAMES).all(JSON.stringify([...new Set(ids)])) as { id: string; username: string }[];
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  /** Which of the given calls have a stored descendant with an exception (for derived `descendant_error`). */
  private descendantFailed(projectId: string, ids: readonly string[]): Set<string> {
    const rows = this.statements.prepare(DESCENDANTS_FAILED_SQL).all({ project: projectId, ids: JSON.stringify(ids) }) as { root: string }[];
    return new Set(rows.map((r) => r.root));
  }

  /** The started calls of one project with the given ids, as records (for `expand_columns`). */
  private callsById(projectId: string, ids: readonly string[]): StoredCallRecord[] {
    const rows = this.statements.prepare(CALLS_BY_IDS).all(projectId, JSON.stringify(ids)) as CallRow[];
    return rows.map(rowToRecord);
  }

  overview(query: OverviewQuery): OverviewResult {
    return overviewResult(query, sqliteOverviewRows(this.statements.prepare, query), this.options.prices);
  }

  projectIds(): string[] {
    return (this.statements.prepare(PROJECT_IDS).all() as { id: string }[]).map((r) => r.id);
  }
}
