/**
 * What the SQLite `CallStore` and the PostgreSQL `PgCallStore` share besides the walker, the staging step and the
 * record pipeline: `CallStoreCommon`, their base class, whose reads, user table, edits and batch write (call-writes.ts)
 * are written once as SQL steps (db/sql-steps.ts) run by the engine's runner, with the record pipeline's lookups; the
 * batch items of a single start or end; the check of a user table. The engines add their cursors.
 * @module
 */
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { andThen } from '../db/store-api.js';
import { all, get, insert, type Steps } from '../db/sql-steps.js';
import type { EndInput, StartInput, UpsertItem } from './call-fields.js';
import { deleteSubtrees, renameCall } from './call-edit-writes.js';
import { startedCalls, writeBatch } from './call-writes.js';
import { endsBeforeStart } from './strict-order.js';
import { HttpError } from '../http/http-error.js';
import type { PriceTable } from './prices.js';
import type { FeedbackStore } from '../feedback/feedback-store.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { TableStore } from '../tables/table-store.js';
import type { ObjectKey } from '../objects/object-vals.js';
import { rowsQuery, rowVals } from './object-ref-reads.js';
import type { CallsQuery } from './query-walk.js';
import { type AsyncRecordPipeline, type RecordPipeline, recordPipeline } from './record-pipeline.js';
import { CALL_COLUMNS, type CallRow, rowToRecord, type StoredCallRecord } from './records.js';

/** Records read per page by `listCalls`. */
export const LIST_PAGE = 500;

const SELECT_CALLS = `SELECT ${CALL_COLUMNS.join(', ')} FROM calls`;
/** Distinct project ids by a loose index scan (one index seek per project, not a scan of every call). */
const PROJECT_IDS = `WITH RECURSIVE p(id) AS (SELECT min(project_id) FROM calls
  UNION ALL SELECT (SELECT min(project_id) FROM calls WHERE project_id > p.id) FROM p WHERE p.id IS NOT NULL)
  SELECT id FROM p WHERE id IS NOT NULL`;

/** The batch of one start. */
export const startBatch = (start: StartInput): UpsertItem[] => [{ mode: 'start', req: { start } }];
/** The batch of one end. */
export const endBatch = (end: EndInput): UpsertItem[] => [{ mode: 'end', req: { end } }];

/**
 * The entries of a user table (user id → user name), checked.
 * @throws TypeError naming the user id when an id or a name is empty.
 */
function checkedUsers(users: Readonly<Record<string, string>>): [string, string][] {
  const entries = Object.entries(users);
  for (const [id, name] of entries) {
    if (!id || typeof name !== 'string' || name === '') {
      throw new TypeError(`users: expected a non-empty user id and name, got ${JSON.stringify(id)} → ${JSON.stringify(name)}`);
    }
  }
  return entries;
}

function* getCall(_: Dialect, projectId: string, id: string): Steps<StoredCallRecord | undefined> {
  const row = yield* get<CallRow>(`${SELECT_CALLS} WHERE project_id = ? AND id = ? AND started_at IS NOT NULL`, [projectId, id]);
  return row && rowToRecord(row);
}

function* countRows(_: Dialect, projectId: string): Steps<number> {
  return (yield* get<{ n: number }>('SELECT count(*) AS n FROM calls WHERE project_id = ?', [projectId]))!.n;
}

function* projectIds(): Steps<string[]> {
  return (yield* all<{ id: string }>(PROJECT_IDS)).map((r) => r.id);
}

function* setUsers(_: Dialect, users: Readonly<Record<string, string>>): Steps<void> {
  yield* insert({ table: 'users', columns: { id: 'text', username: 'text' }, rows: checkedUsers(users), tail: 'ON CONFLICT (id) DO UPDATE SET username = excluded.username' });
}

/** Names of the user ids the users table knows (duplicates in `ids` are fine). */
function* usernames(d: Dialect, ids: readonly string[]): Steps<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = yield* all<{ id: string; username: string }>(`SELECT id, username FROM users WHERE ${d.inList('id')}`, [d.list([...new Set(ids)])]);
  return new Map(rows.map((r) => [r.id, r.username]));
}

/**
 * The calls of `ids` in a project that have a descendant (by parent_id, any depth) with an exception; UNION, so a
 * cycle of parent ids ends; reads the parent index. On SQLite, `CROSS JOIN` keeps the walk outermost: with a plain
 * join its planner put `calls` outside and scanned the project's whole parent index per step (a 10,000-call trace in
 * a 1,000,000-call project: 16 s instead of ms); PostgreSQL has no `CROSS JOIN ... ON` and plans it well.
 */
function* descendantFailed(d: Dialect, projectId: string, ids: readonly string[]): Steps<Set<string>> {
  const join = d.engine === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const rows = yield* all<{ root: string }>(`WITH RECURSIVE below(root, id) AS (
      SELECT value, value FROM (${d.listRows()}) l
      UNION SELECT b.root, c.id FROM below b ${join} calls c ON c.project_id = ? AND c.parent_id = b.id
    )
    SELECT DISTINCT b.root AS root FROM below b ${join} calls e ON e.project_id = ? AND e.id = b.id
    WHERE b.id <> b.root AND e.exception IS NOT NULL`, [d.list(ids), projectId, projectId]);
  return new Set(rows.map((r) => r.root));
}

/** The started calls of one project with the given ids, as records (for `expand_columns`). */
function* callsById(d: Dialect, projectId: string, ids: readonly string[]): Steps<StoredCallRecord[]> {
  const rows = yield* all<CallRow>(`${SELECT_CALLS} WHERE project_id = ? AND ${d.inList('id')} AND started_at IS NOT NULL`, [projectId, d.list(ids)]);
  return rows.map(rowToRecord);
}

/** What a call store reads besides its database: prices, and the other stores of the same database. */
export interface CallStoreDeps<W extends Wait> {
  /** Model prices for `include_costs`, already merged over `DEFAULT_PRICES`. */
  prices: PriceTable;
  /** The feedback of the same database, for `include_feedback`. */
  feedback: Pick<FeedbackStore<W>, 'forCalls'>;
  /** The objects and tables of the same database, for `expand_columns` of object refs. */
  objects: Pick<ObjectStore<W>, 'readVals'>;
  tables: Pick<TableStore<W>, 'query'>;
  /** Refuse (422) a batch end whose call has no stored start (a testing aid, see `StoreOptions.strictOrder`). */
  strictOrder?: boolean;
}

/**
 * The call methods both engines write once (each contract is on `CallStoreApi`): SQLite answers values, PostgreSQL
 * Promises. The record pipeline's lookups are here too.
 */
export abstract class CallStoreCommon<W extends Wait> {
  /** Ends refused by `strictOrder` so far (each counted once per refused batch). */
  orderRefusals = 0;

  /**
   * @param sql - the engine's runner over the store's database.
   * @param deps - prices, the other stores of the same database, strictOrder.
   */
  protected constructor(protected readonly sql: SqlRunner<W>, protected readonly deps: CallStoreDeps<W>) {}

  /** @throws HttpError 422 (`strictOrder`) naming each end whose call has no start, stored or earlier in the batch. */
  upsertBatch(items: readonly UpsertItem[]): Out<W, (CallStartRes | CallEndRes)[]> {
    if (!this.deps.strictOrder) return this.sql.transaction(writeBatch, items);
    return andThen(this.sql.run(startedCalls, items), (started) => {
      const refused = endsBeforeStart(started, items);
      this.orderRefusals += refused.length;
      if (refused.length > 0) throw HttpError.validation(refused);
      return this.sql.transaction(writeBatch, items);
    }) as Out<W, (CallStartRes | CallEndRes)[]>;
  }

  startCall(start: StartInput): Out<W, CallStartRes> {
    return andThen(this.upsertBatch(startBatch(start)), (r) => r[0] as CallStartRes) as Out<W, CallStartRes>;
  }

  endCall(end: EndInput): Out<W, CallEndRes> {
    return andThen(this.upsertBatch(endBatch(end)), (r) => r[0] as CallEndRes) as Out<W, CallEndRes>;
  }

  getCall(projectId: string, id: string): Out<W, StoredCallRecord | undefined> {
    return this.sql.run(getCall, projectId, id);
  }

  countRows(projectId: string): Out<W, number> {
    return this.sql.run(countRows, projectId);
  }

  projectIds(): Out<W, string[]> {
    return this.sql.run(projectIds);
  }

  /** @throws TypeError naming the user id when an id or a name is empty (nothing is stored then). */
  setUsers(users: Readonly<Record<string, string>>): Out<W, void> {
    return this.sql.transaction(setUsers, users);
  }

  updateCall(projectId: string, id: string, displayName: string | null): Out<W, void> {
    return this.sql.transaction(renameCall, projectId, id, displayName);
  }

  deleteCalls(projectId: string, ids: readonly string[]): Out<W, number> {
    return this.sql.transaction(deleteSubtrees, projectId, ids);
  }

  /** The record pipeline of a query over this store (`recordPipeline`), with its lookups through the other stores. */
  protected pipeline(query: CallsQuery): W extends 'sync' ? RecordPipeline : AsyncRecordPipeline {
    const { prices, feedback, objects, tables } = this.deps;
    return recordPipeline(query, {
      prices,
      feedbackFor: (projectId: string, callIds: readonly string[]) => feedback.forCalls(projectId, callIds),
      objectVals: (projectId: string, keys: readonly ObjectKey[]) => objects.readVals(projectId, keys),
      tableRows: (projectId: string, digest: string, rows: readonly string[]) => andThen(tables.query(rowsQuery(projectId, digest, rows)), rowVals),
      usernames: (ids: readonly string[]) => this.sql.run(usernames, ids),
      callsById: (projectId: string, ids: readonly string[]) => this.sql.run(callsById, projectId, ids),
      descendantFailed: (projectId: string, ids: readonly string[]) => this.sql.run(descendantFailed, projectId, ids),
    }) as W extends 'sync' ? RecordPipeline : AsyncRecordPipeline;
  }
}
