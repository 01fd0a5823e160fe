/**
 * `startServer()`: opens a store (SQLite, or PostgreSQL loaded only when asked for) and serves the app over HTTP.
 * @module
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { type AppOptions, createApp } from './app.js';
import { openStore } from './store.js';
import { isPostgresUrl } from './db/pg-url.js';
import { parseApiKeys } from './http/api-keys.js';
import { describeAccess } from './http/auth.js';
import type { PriceTable } from './calls/prices/price-table.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './listen-defaults.js';
import { MonitorLoop, type MonitorLoopOptions } from 'weft-trace/eval';
import { storePort } from './monitor-port.js';
import { type RetentionJob, startRetentionJob } from './calls/jobs/retention-job.js';
import { type RollupJob, type RollupJobOptions, startRollupJob } from './calls/jobs/rollup-job.js';
import { FEEDBACK_ROLLUP_INTERVAL_MS, refreshStaleFeedbackHours } from './feedback/feedback-rollup-job.js';
import { type PeriodicJob, startPeriodicJob } from './calls/jobs/periodic-job.js';
import { type ServerStore, storeParts } from './server-store.js';
import type { FeedbackStore } from './feedback/feedback-store.js';
import type { CallsQuery } from './calls/query/query-sql.js';
import { fillQueues } from './queues/queue-fill.js';

/** Options of {@link startServer}; `maxBodyBytes`, `log` and `now` as {@link AppOptions} (`createApp`) takes them. */
export interface StartServerOptions extends Pick<AppOptions, 'maxBodyBytes' | 'log' | 'now'> {
  /** TCP port; `0` picks a free one (read it back from `port`). @defaultValue 6345 */
  port?: number;
  /** Address to bind. @defaultValue `'127.0.0.1'` (loopback only) */
  host?: string;
  /** SQLite file, created if missing; `':memory:'` for a throwaway store. Ignored when `db` is set. @defaultValue `'weft.db'` in the cwd */
  dbPath?: string;
  /**
   * A PostgreSQL database to run on instead of SQLite: `postgres://user:password@host:port/database`. Several
   * servers may share one database (migrations run once, under an advisory lock). Env: `WEFT_DB_URL`, read when
   * neither `db` nor `dbPath` is given. @defaultValue none (SQLite at `dbPath`)
   */
  db?: string;
  /**
   * API keys, each `key` (all projects) or `key=entity/project,entity/project2`; comma-separated lists allowed.
   * With keys, clients must send Basic `api:<key>` (Bearer `<key>` on `/v1/preview/*`); without, only loopback
   * clients are served. Env: `WEFT_SERVER_API_KEYS` (comma separated), read when this option is absent.
   * @defaultValue none (loopback clients only)
   */
  apiKeys?: readonly string[];
  /**
   * Model prices for stream_query `include_costs`, USD per 1M tokens (cache reads and writes optional),
   * used before the bundled `@pydantic/genai-prices` table for the models they name.
   * @defaultValue none (genai-prices alone)
   */
  prices?: PriceTable;
  /** Users (user id → user name) stored at start, for stream_query `include_usernames`. @defaultValue none */
  users?: Record<string, string>;
  /** A testing aid: refuse (422) an end whose call has no stored start; see `StoreOptions.strictOrder`. @defaultValue false */
  strictOrder?: boolean;
  /**
   * Runs the stored monitors (online scoring, `weft monitors add`) inside this server: `true` or the loop's options
   * (`intervalMs` between passes, default 5000; `settleMs`, default 10000: calls that ended this long ago are read).
   * `weft serve` turns it on unless `--no-monitors`. @defaultValue false (a worker, `weft monitors run`, may run them)
   */
  monitors?: boolean | MonitorLoopOptions;
  /**
   * Retention: keep calls this many days (a positive number). Once listening, and then every hour, the server deletes
   * the traces whose root started longer ago, with their feedback, in batches of 2,000 calls that take turns with the
   * writes (see docs/scale.md, "Retention"). With several servers on one PostgreSQL database, one of them is enough.
   * @defaultValue none (calls are kept)
   */
  retentionDays?: number;
  /**
   * Runs the overview's rollup job (calls/jobs/rollup-job.ts) inside this server: `true` or its options (`intervalMs`
   * between runs, default 30,000; `liveRoots`, the live bound below, default the engine's, smaller only for tests). It recomputes the hour rollups writes marked stale, each hour in slices of roots
   * (1,000 on SQLite, 250 on PostgreSQL) that take turns with the writes, so `POST /weft/calls/overview` reads hours instead of rows; the answer is the
   * same without it, only slower (stale hours past a bound of live roots are left out and said so: docs/scale.md).
   * `weft serve` turns it on. The feedback rollup job (feedback/feedback-rollup-job.ts) runs with it, on the same
   * interval, so `POST /feedback/stats` reads hours too. @defaultValue false
   */
  rollups?: boolean | Pick<RollupJobOptions, 'intervalMs' | 'liveRoots'>;
  /**
   * Fills the dynamic and monitor-fed review queues inside this server (queues/queue-fill.ts): `true` or the job's
   * options (`intervalMs` between runs, default 5,000; `settleMs`, default 5,000: calls started this long ago are read,
   * so late arrivals are not passed over). The write path never waits for it. `weft serve` turns it on.
   * @defaultValue false (`POST /weft/queues/fill` fills them on demand)
   */
  queues?: boolean | QueueFillOptions;
}

/** Options of the queue fill job ({@link StartServerOptions.queues}). */
export interface QueueFillOptions {
  /** Milliseconds between runs (a positive integer). @defaultValue 5000 */
  intervalMs?: number;
  /** Milliseconds a call's start must be in the past before a run reads it. @defaultValue 5000 */
  settleMs?: number;
}

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:6345` (no trailing slash). */
  url: string;
  /** The port actually bound (useful with `port: 0`). */
  port: number;
  /** The store behind the server (for tests and tools): a `Store` on SQLite, a `PgStore` on PostgreSQL. */
  store: ServerStore;
  /** How clients are admitted, for a start log line (e.g. `no API keys set: loopback clients only`); never the keys. */
  access: string;
  /** The monitor loop, when `monitors` was set (its `runOnce()` runs a pass now). */
  monitors?: MonitorLoop;
  /** The retention job, with `retentionDays` (its `runNow()` runs it once more at once). */
  retention?: RetentionJob;
  /** The overview's rollup job, with `rollups` (its `runNow()` refreshes the stale hours at once). */
  rollups?: RollupJob;
  /** The feedback rollup job, with `rollups` (its `runNow()` refreshes the stale hours at once). */
  feedbackRollups?: PeriodicJob<number>;
  /** The queue fill job, with `queues` (its `runNow()` fills at once and answers how many items it added). */
  queueFill?: PeriodicJob<number>;
  /** Stops accepting requests, drops open connections and closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store and starts the HTTP server.
 *
 * @param options - port, host, database path, body limit and logger; see {@link StartServerOptions}.
 * @returns once listening: the URL, port, store and a `close()`.
 * @throws the listen error (e.g. `code: 'EADDRINUSE'` when the port is busy; the store is closed again),
 *   or the SQLite / PostgreSQL error when the database cannot be opened or migrated, or a TypeError for a
 *   malformed `apiKeys` item or a `db` that is not a `postgres://` URL (before anything is opened), or a TypeError
 *   for a `retentionDays` that is not a positive number (the store is closed again).
 * @see service interface spec (spec/service-interface.md), "Endpoints"
 * @example
 * ```ts
 * const server = await startServer({ port: 0, dbPath: ':memory:' });
 * await fetch(`${server.url}/call/start`, { method: 'POST', body: JSON.stringify({ start }) });
 * await server.close();
 * ```
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { port = DEFAULT_PORT, host = DEFAULT_HOST, dbPath = 'weft.db' } = options;
  const apiKeys = options.apiKeys ?? (process.env.WEFT_SERVER_API_KEYS ?? '').split(',');
  const access = describeAccess(parseApiKeys(apiKeys));
  const dbUrl = options.db ?? (options.dbPath === undefined ? process.env.WEFT_DB_URL || undefined : undefined);
  if (dbUrl !== undefined && !isPostgresUrl(dbUrl)) throw new TypeError(`db must be a postgres:// URL, got ${JSON.stringify(String(dbUrl).split('@').pop())}`);
  const storeOptions = { prices: options.prices, users: options.users, strictOrder: options.strictOrder };
  // the PostgreSQL store (and the pg driver) is loaded only for a postgres:// URL: a SQLite server never pays for it
  const store: ServerStore = dbUrl !== undefined
    ? await (await import('./pg-store.js')).openPgStore(dbUrl, storeOptions)
    : openStore(dbPath, storeOptions);
  const app = createApp({ maxBodyBytes: options.maxBodyBytes, log: options.log, now: options.now, store, apiKeys });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host });
  const log = options.log ?? console.error;
  let retention: RetentionJob | undefined;
  try {
    if (options.retentionDays !== undefined) retention = startRetentionJob(storeParts(store).calls, { days: options.retentionDays, log, now: options.now });
  } catch (err) {
    await store.close();
    throw err;
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await retention?.stop();
    await store.close();
    throw err;
  }
  const bound = (server.address() as AddressInfo).port;
  const loopOptions = options.monitors === true ? {} : options.monitors || undefined;
  const monitors = loopOptions ? new MonitorLoop(storePort(storeParts(store)), { log, ...loopOptions }).start() : undefined;
  const rollupOptions = options.rollups === true ? {} : options.rollups || undefined;
  const rollups = rollupOptions ? startRollupJob(storeParts(store).calls, { log, now: options.now, ...rollupOptions }) : undefined;
  const feedbackRollups = rollupOptions ? startFeedbackRollups(storeParts(store).feedback, log, rollupOptions.intervalMs, options.now) : undefined;
  const fillOptions = options.queues === true ? {} : options.queues || undefined;
  const queueFill = fillOptions ? startQueueFill(store, log, fillOptions, options.now) : undefined;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(async () => {
        await monitors?.stop();
        await rollups?.stop().catch(() => undefined);
        await feedbackRollups?.stop().catch(() => undefined);
        await queueFill?.stop().catch(() => undefined);
        (retention?.stop() ?? Promise.resolve()).then(() => store.close()).then(resolve, (err: unknown) => {
          log(`weft server: error while closing the database: ${String(err)}`);
          resolve();
        });
      });
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    return closing;
  };
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, port: bound, store, access, retention, rollups, feedbackRollups, queueFill, monitors, close };
}

/**
 * Starts the feedback rollup job: a first run at once, then one every `intervalMs` (default 30 s); a failed run is logged.
 * @returns the job; its `runNow()` answers how many hours it refreshed.
 */
function startFeedbackRollups(feedback: FeedbackStore, log: (line: string) => void, intervalMs = FEEDBACK_ROLLUP_INTERVAL_MS, now = (): Date => new Date()): PeriodicJob<number> {
  return startPeriodicJob('feedback rollup', intervalMs, log, (stopped) => refreshStaleFeedbackHours(feedback, now(), stopped));
}

/** Starts the queue fill job: a first run at once, then one every `intervalMs`; a failed run is logged. */
function startQueueFill(store: ServerStore, log: (line: string) => void, options: QueueFillOptions, now = (): Date => new Date()): PeriodicJob<number> {
  const stores = { ...storeParts(store), listCalls: (q: CallsQuery) => store.listCalls(q) };
  const settleMs = options.settleMs ?? 5000;
  return startPeriodicJob('queue fill', options.intervalMs ?? 5000, log, () => fillQueues(stores, now(), undefined, settleMs));
}
