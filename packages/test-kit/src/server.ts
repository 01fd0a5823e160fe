/**
 * Test helper shared by every suite: a real weft server on an ephemeral loopback port, over `:memory:` SQLite, or,
 * in the `postgres` vitest project (`WEFT_TEST_STORE=postgres`), over a fresh PostgreSQL database of its own.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from 'weft-server';
import { testStore } from './test-store.js';

/**
 * Starts a server on `127.0.0.1`, port 0 (a free one), with an empty database: `:memory:` SQLite, or a new
 * PostgreSQL database (dropped by `close()`) when the run is on PostgreSQL and `opts` names no `dbPath` or `db`.
 * Close it with `await server.close()` (e.g. in `afterAll`/`afterEach`).
 *
 * @param opts - overrides; `port`, `host` and `dbPath` default to `0`, `127.0.0.1` and `:memory:`; `apiKeys`
 *   to none (loopback clients only, whatever `WEFT_SERVER_API_KEYS` says).
 * @returns the running server; its `url` has no trailing slash.
 */
export async function startTestServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const base: StartServerOptions = { port: 0, host: '127.0.0.1', dbPath: ':memory:', log: () => {}, apiKeys: [] };
  if (testStore() !== 'postgres' || opts.dbPath !== undefined || opts.db !== undefined) return startServer({ ...base, ...opts });
  // the pg helpers (and the pg driver) load only on PostgreSQL
  const database = await (await import('./pg.js')).freshPgDatabase('srv');
  let server: RunningServer;
  try {
    server = await startServer({ ...base, db: database.url, ...opts });
  } catch (err) {
    await database.drop();
    throw err;
  }
  const close = server.close;
  return { ...server, close: async () => { await close(); await database.drop(); } };
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start one test server for the file and close it after.
 *
 * @returns a getter for the running server (throws if called before `beforeAll` ran).
 */
export function useTestServer(opts: StartServerOptions = {}): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(opts);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('useTestServer(): the server starts in beforeAll; read it inside a test');
    return server;
  };
}

/**
 * Like {@link useTestServer}, on a SQLite database file of its own (`weft.db` in a temp directory, removed after the
 * server closes), as `weft serve` runs, on either store's run: for a file that reads tens of thousands of calls back.
 * A `:memory:` database is read in LIMIT/OFFSET statements (it has no second connection to hold one read open), each
 * running the query again up to its offset; a file is read by one statement on a connection of its own
 * (calls/query/call-cursor.ts).
 *
 * @returns a getter for the running server (throws if called before `beforeAll` ran).
 */
export function useFileTestServer(opts: StartServerOptions = {}): () => RunningServer {
  const dir = mkdtempSync(path.join(tmpdir(), 'weft-test-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true })); // registered first, so it runs after the server's close
  return useTestServer({ ...opts, dbPath: path.join(dir, 'weft.db') });
}
