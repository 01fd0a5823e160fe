/**
 * Test helper shared by every suite: a real weft server on an ephemeral loopback port over `:memory:` SQLite.
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server/index.js';

/**
 * Starts a server on `127.0.0.1`, port 0 (a free one), with an in-memory database. Close it with
 * `await server.close()` (e.g. in `afterAll`/`afterEach`).
 *
 * @param opts - overrides; `port`, `host` and `dbPath` default to `0`, `127.0.0.1` and `:memory:`; `apiKeys`
 *   to none (loopback clients only, whatever `WEFT_SERVER_API_KEYS` says).
 * @returns the running server; its `url` has no trailing slash.
 */
export function startTestServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  return startServer({ port: 0, host: '127.0.0.1', dbPath: ':memory:', log: () => {}, apiKeys: [], ...opts });
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
