/**
 * `PgStore`: the server's database on PostgreSQL (`weft serve --db postgres://...`), one store per resource over
 * one connection pool; several servers may share the database.
 * @module
 */
import type { CallEndRes, CallStartRes } from '../schema/calls.js';
import type { CallCursorApi, CallStoreApi } from './calls/call-store-api.js';
import type { EndInput, StartInput, UpsertItem } from './calls/call-writes.js';
import type { WireRecord } from './calls/columns.js';
import { DEFAULT_PRICES, checkPriceTable } from './calls/prices.js';
import type { CallsQuery } from './calls/query-sql.js';
import type { StoredCallRecord } from './calls/records.js';
import { openPgDatabase, type PgDatabase } from './db/pg-database.js';
import { PgCallStore } from './calls/pg-call-store.js';
import type { FeedbackStoreApi } from './feedback/feedback-store-api.js';
import { PgFeedbackStore } from './feedback/pg-feedback-store.js';
import { PgFileStore } from './objects/pg-file-store.js';
import { PgObjectStore } from './objects/pg-object-store.js';
import { PgTableStore } from './tables/pg-table-store.js';
import { PgTrainingStore } from './training/pg-training-store.js';
import type { FileStoreApi, ObjectStoreApi } from './objects/object-store-api.js';
import type { ServerStore } from './server-store.js';
import type { StoreOptions } from './store.js';
import type { TableStoreApi } from './tables/table-store-api.js';
import type { TrainingStoreApi } from './training/training-store-api.js';
import type { PriceTable } from './calls/prices.js';

/** What each resource's PostgreSQL store is built from. */
export interface PgStoreDeps {
  /** The open database (pool, transactions). */
  db: PgDatabase;
  /** Model prices, merged over `DEFAULT_PRICES`. */
  prices: PriceTable;
  /** The store's options. */
  options: StoreOptions;
}

/** The database of a server on PostgreSQL. Create with {@link openPgStore}; every method answers a Promise. */
export class PgStore implements ServerStore {
  /** The engine: PostgreSQL. */
  readonly engine = 'postgres' as const;
  readonly appliedMigrations: readonly string[];
  /** @internal */ readonly calls: CallStoreApi;
  /** @internal */ readonly feedback: FeedbackStoreApi;
  /** @internal */ readonly tables: TableStoreApi;
  /** @internal */ readonly training: TrainingStoreApi;
  /** @internal */ readonly objects: ObjectStoreApi;
  /** @internal */ readonly files: FileStoreApi;

  /** @internal Use {@link openPgStore}. */
  constructor(readonly db: PgDatabase, options: StoreOptions = {}) {
    this.appliedMigrations = db.appliedMigrations;
    const deps: PgStoreDeps = { db, prices: { ...DEFAULT_PRICES, ...checkPriceTable(options.prices ?? {}) }, options };
    this.feedback = new PgFeedbackStore(db);
    this.tables = new PgTableStore(db);
    this.training = new PgTrainingStore(db);
    this.objects = new PgObjectStore(db);
    this.files = new PgFileStore(db);
    this.calls = new PgCallStore(db, { prices: deps.prices, feedbackFor: (p, ids) => this.feedback.forCalls(p, ids), strictOrder: options.strictOrder });
  }

  get closed(): boolean {
    return this.db.closed;
  }

  startCall(start: StartInput): Promise<CallStartRes> {
    return Promise.resolve(this.calls.startCall(start));
  }

  endCall(end: EndInput): Promise<CallEndRes> {
    return Promise.resolve(this.calls.endCall(end));
  }

  upsertBatch(items: readonly UpsertItem[]): Promise<(CallStartRes | CallEndRes)[]> {
    return Promise.resolve(this.calls.upsertBatch(items));
  }

  queryCalls(query: CallsQuery): Promise<CallCursorApi<WireRecord>> {
    return Promise.resolve(this.calls.queryCalls(query));
  }

  async setUsers(users: Record<string, string>): Promise<void> {
    await this.calls.setUsers(users);
  }

  listCalls(query: CallsQuery): Promise<WireRecord[]> {
    return Promise.resolve(this.calls.listCalls(query));
  }

  getCall(projectId: string, id: string): Promise<StoredCallRecord | undefined> {
    return Promise.resolve(this.calls.getCall(projectId, id));
  }

  countRows(projectId: string): Promise<number> {
    return Promise.resolve(this.calls.countRows(projectId));
  }

  /** Closes open cursors, then the pool. Idempotent. */
  async close(): Promise<void> {
    if (this.db.closed) return;
    await this.calls.close();
    await this.db.close();
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
export async function openPgStore(url: string, options: StoreOptions = {}): Promise<PgStore> {
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
