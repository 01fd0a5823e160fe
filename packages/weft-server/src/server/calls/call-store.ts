/**
 * The calls of one database (spec endpoints 7, 5 and 3, the Weave-compat edits, OTLP ingest, the overview), for both
 * engines: `CallStore`, whose reads and user table (call-reads.ts), edits and batch write (call-writes.ts) are written
 * once as SQL steps (db/sql-steps.ts) run by the engine's runner, with the record pipeline's lookups; each engine's
 * cursors are its `CallEngine` leaf (store.ts, pg-store.ts). SQLite answers values (a batch is written without yielding
 * the event loop), PostgreSQL Promises; several servers may share a PostgreSQL database. With the files it runs, the
 * only code that runs SQL on `calls`, `call_refs`, `call_renames` and `users`.
 * @module
 */
import type { CallEndRes, CallStartRes } from 'weft-trace/wire';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { andThen, type MaybePromise } from '../db/store-api.js';
import type { EndInput, StartInput, UpsertItem } from './write/call-fields.js';
import { type CallCursorApi, mapCursor } from './query/call-cursor.js';
import { deleteSubtrees, renameCall } from './write/call-edit-writes.js';
import { startedCalls, writeBatch } from './write/call-writes.js';
import { type DeletedBatch, deleteBatchBefore } from './write/retention-writes.js';
import type { WireRecord } from './query/columns.js';
import { endsBeforeStart } from './write/strict-order.js';
import { HttpError } from '../http/http-error.js';
import type { PriceTable } from './prices/price-table.js';
import type { FeedbackStore } from '../feedback/feedback-store.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { TableStore } from '../tables/table-store.js';
import type { ObjectKey } from '../objects/object-vals.js';
import { rowsQuery, rowVals } from './query/object-ref-reads.js';
import { type OverviewAnswer, overviewInTurns, type OverviewOptions, overviewOn, type OverviewResult, type Turn } from './overview/overview.js';
import type { OverviewQuery, RootKey } from './overview/overview-sql.js';
import { claimHour, type HourSlice, hourSlice, releaseHour, type StaleHour, staleHours, storeHour } from './overview/rollup-refresh.js';
import type { Piece } from './overview/overview-pieces.js';
import type { CallsQuery } from './query/query-walk.js';
import { type RecordPipeline, recordPipeline } from './query/record-pipeline.js';
import type { StoredCallRecord } from './query/records.js';
import { callsById, countRows, descendantFailed, getCall, projectIds, setUsers, usernames } from './call-reads.js';

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

/** What calls do their own way on each engine: stream-query cursors. */
export interface CallEngine<W extends Wait> {
  /**
   * Compiles a stream query, then answers the opener of its cursor; `onClose` runs once when that cursor closes (or
   * fails to open), and `signal` cancels its running statement where statements run off the event loop (PostgreSQL).
   * @throws QueryError for an unknown sort, query or column field, before any connection is taken.
   */
  cursor(query: CallsQuery): (onClose: () => void, signal?: AbortSignal) => Out<W, CallCursorApi<StoredCallRecord>>;
}

/**
 * Calls of every project in one database, on either engine (`W`): SQLite's methods answer values, PostgreSQL's
 * Promises; routes await them. The record pipeline's lookups are here too.
 */
export class CallStore<W extends Wait = Wait> {
  /** Ends refused by `strictOrder` so far (each counted once per refused batch). */
  orderRefusals = 0;
  readonly #cursors = new Set<CallCursorApi<unknown>>();

  /**
   * @param sql - the engine's runner over the store's database.
   * @param engine - the engine's cursors.
   * @param deps - prices, the other stores of the same database, strictOrder.
   */
  constructor(
    private readonly sql: SqlRunner<W>,
    private readonly engine: CallEngine<W>,
    private readonly deps: CallStoreDeps<W>,
  ) {}

  /**
   * Applies a batch of starts and ends in one transaction, in order: all of it is stored or none.
   * @throws HttpError 422 (`strictOrder`) naming each end whose call has no start, stored or earlier in the batch.
   */
  upsertBatch(items: readonly UpsertItem[]): Out<W, (CallStartRes | CallEndRes)[]> {
    if (!this.deps.strictOrder) return this.sql.transaction(writeBatch, items);
    return andThen(this.sql.run(startedCalls, items), (started) => {
      const refused = endsBeforeStart(started, items);
      this.orderRefusals += refused.length;
      if (refused.length > 0) throw HttpError.validation(refused);
      return this.sql.transaction(writeBatch, items);
    }) as Out<W, (CallStartRes | CallEndRes)[]>;
  }

  /**
   * Runs `writes` (calls of {@link upsertBatch}) as one unit: on SQLite one transaction with one commit, each batch
   * still all-or-nothing on its own (`SqlRunner.together`).
   * @throws what the commit throws (none of the batches is stored then).
   */
  together(writes: () => void): void {
    this.sql.together(writes);
  }

  /** Stores a call start (upsert on project_id + id); `id` and `trace_id` generated (UUIDv7) when absent. */
  startCall(start: StartInput): Out<W, CallStartRes> {
    const answers = this.upsertBatch([{ mode: 'start', req: { start } }]);
    return andThen(answers, (r) => r[0] as CallStartRes) as Out<W, CallStartRes>;
  }

  /** Stores a call end (upsert on project_id + id); works before the start has arrived. */
  endCall(end: EndInput): Out<W, CallEndRes> {
    const answers = this.upsertBatch([{ mode: 'end', req: { end } }]);
    return andThen(answers, (r) => r[0] as CallEndRes) as Out<W, CallEndRes>;
  }

  /**
   * Opens a cursor over the calls matching a stream query (SQLite: on a file, a snapshot with its own read
   * connection; in memory, one LIMIT/OFFSET page per read. PostgreSQL: a server-side cursor in a snapshot).
   * @param signal - aborts when nobody waits for the answer any more: PostgreSQL cancels the running statement.
   * @throws QueryError for an unknown sort, query or column field (the app answers 422), before any row is read.
   */
  queryCalls(query: CallsQuery, signal?: AbortSignal): Out<W, CallCursorApi<WireRecord>> {
    const open = this.engine.cursor(query);
    const pipeline = this.pipeline(query);
    // onClose may run before the cursor is open (a PostgreSQL cursor that failed to open): nothing to forget then
    let inner: CallCursorApi<StoredCallRecord> | undefined;
    return andThen(open(() => void (inner && this.#cursors.delete(inner)), signal), (cursor) => {
      this.#cursors.add((inner = cursor));
      return mapCursor(cursor, pipeline);
    }) as Out<W, CallCursorApi<WireRecord>>;
  }

  /** One started call by id, or undefined (also while only its end has arrived). */
  getCall(projectId: string, id: string): Out<W, StoredCallRecord | undefined> {
    return this.sql.run(getCall, projectId, id);
  }

  /** Number of stored rows of a project, including ends still waiting for their start. */
  countRows(projectId: string): Out<W, number> {
    return this.sql.run(countRows, projectId);
  }

  /** The ids of the projects holding at least one call, sorted (for the trace viewer's project picker). */
  projectIds(): Out<W, string[]> {
    return this.sql.run(projectIds);
  }

  /**
   * Stores (or renames) users, user id → user name, all or none. Ids are what calls carry in `svc_user_id`.
   * @throws TypeError naming the user id when an id or a name is empty (nothing is stored then).
   */
  setUsers(users: Readonly<Record<string, string>>): Out<W, void> {
    return this.sql.transaction(setUsers, users);
  }

  /**
   * Sets the `display_name` of a call (`null` clears it); Weave SDK compatibility (`/call/update`). A call whose start
   * has not arrived gets the name when it does.
   */
  updateCall(projectId: string, id: string, displayName: string | null): Out<W, void> {
    return this.sql.transaction(renameCall, projectId, id, displayName);
  }

  /** Deletes calls with all their descendants, in one transaction; unknown ids are ignored. @returns how many. */
  deleteCalls(projectId: string, ids: readonly string[]): Out<W, number> {
    return this.sql.transaction(deleteSubtrees, projectId, ids);
  }

  /**
   * Deletes ONE batch of a project's traces started before `cutoff`, with their feedback, in one transaction (the rule:
   * `deleteBatchBefore`). Callers repeat it while `more` is true, each batch taking its turn (calls/jobs/retention.ts), so
   * no write waits long. The overview hours of the deleted roots are marked stale there.
   * @param cutoff - a normalized UTC timestamp (`normalizeTimestamp`).
   * @param batchSize - calls per transaction (a trace larger than that is deleted whole, alone).
   */
  deleteCallsBefore(projectId: string, cutoff: string, batchSize: number): Out<W, DeletedBatch> {
    return this.sql.transaction(deleteBatchBefore, projectId, cutoff, batchSize);
  }

  /**
   * The overview of a window (`POST /weft/calls/overview`): the stored hour rollups that stand, and the roots of the
   * rest counted per time bucket and series in SQL (the stale hours' up to a bound), their usage summed per model and
   * priced (overview.ts).
   * @param useRollups - false counts every root live (the same answer; for tests and benchmarks). @defaultValue true
   */
  overview(query: OverviewQuery, useRollups = true): Out<W, OverviewResult> {
    return andThen(this.overviewAnswer(query, { useRollups }) as MaybePromise<OverviewAnswer>, (a) => a.result) as Out<W, OverviewResult>;
  }

  /**
   * The `liveRoots` of an overview that names none (`OverviewOptions.liveRoots`): null (every stale hour counted live)
   * while no rollup job runs here; a running job (calls/jobs/rollup-job.ts) sets its own bound, undefined for the
   * engine's `LIVE_ROOTS`: only then are stale hours past the bound left out, since only then will they be done
   * (overview/overview-live-bound.ts).
   */
  defaultLiveRoots: number | null | undefined = null;

  /** {@link overview} with where its answer came from (`source`: rollup hours, live ranges, stale hours left out). */
  overviewAnswer(query: OverviewQuery, options: OverviewOptions = {}): Out<W, OverviewAnswer> {
    return overviewOn(this.sql, query, this.deps.prices, this.bounded(options));
  }

  /** {@link overviewAnswer} in turns (SQLite: an hour of live roots per turn; overview.ts `overviewInTurns`). */
  overviewInTurns(query: OverviewQuery, turn: Turn, options: OverviewOptions = {}): Promise<OverviewAnswer> {
    return overviewInTurns(this.sql, query, this.deps.prices, turn, this.bounded(options));
  }

  private bounded(options: OverviewOptions): OverviewOptions {
    return options.liveRoots !== undefined ? options : { ...options, liveRoots: this.defaultLiveRoots };
  }

  /** The oldest stale overview hours before `beforeHour`, at most `limit`: marked, then claimed before `expiredBefore`. */
  staleRollupHours(beforeHour: string, limit: number, expiredBefore: string): Out<W, StaleHour[]> {
    return this.sql.run(staleHours, beforeHour, limit, expiredBefore);
  }

  // the rollup job's parts of one hour's refresh (overview/rollup-refresh.ts): claim, slices, store (or give it back)
  claimRollupHour(projectId: string, hour: string, token: string, nowIso: string, expiredBefore: string): Out<W, boolean> {
    return this.sql.transaction(claimHour, projectId, hour, token, nowIso, expiredBefore);
  }
  rollupHourSlice(projectId: string, hour: string, after: RootKey | null, limit?: number): Out<W, HourSlice> {
    return this.sql.run(hourSlice, projectId, hour, after, limit);
  }
  storeRollupHour(projectId: string, hour: string, token: string, pieces: readonly Piece[]): Out<W, boolean> {
    return this.sql.transaction(storeHour, projectId, hour, token, pieces);
  }
  releaseRollupHour(projectId: string, hour: string, token: string): Out<W, void> {
    return this.sql.transaction(releaseHour, projectId, hour, token);
  }

  /** Closes the open cursors (before the connection or pool): SQLite's at once, PostgreSQL's together, errors skipped. */
  close(): MaybePromise<void> {
    const closing = [...this.#cursors].map((c) => c.close()).filter((c) => c instanceof Promise);
    return closing.length > 0 ? Promise.allSettled(closing).then(() => {}) : undefined;
  }

  /** The record pipeline of a query over this store (`recordPipeline`), with its lookups through the other stores. */
  private pipeline(query: CallsQuery): RecordPipeline {
    const { prices, feedback, objects, tables } = this.deps;
    return recordPipeline(query, {
      prices,
      feedbackFor: (projectId: string, callIds: readonly string[]) => feedback.forCalls(projectId, callIds),
      objectVals: (projectId: string, keys: readonly ObjectKey[]) => objects.readVals(projectId, keys),
      tableRows: (projectId: string, digest: string, rows: readonly string[]) => andThen(tables.query(rowsQuery(projectId, digest, rows)), rowVals),
      usernames: (ids: readonly string[]) => this.sql.run(usernames, ids),
      callsById: (projectId: string, ids: readonly string[]) => this.sql.run(callsById, projectId, ids),
      descendantFailed: (projectId: string, ids: readonly string[]) => this.sql.run(descendantFailed, projectId, ids),
    });
  }
}
