// Test helper: two servers on one fresh PostgreSQL database (as two replicas behind a load balancer), for the race tests.
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';

/** What {@link useTwoServers} started: the database's URL and the two servers on it. */
export interface TwoServers {
  url: string;
  a: RunningServer;
  b: RunningServer;
}

/**
 * Registers hooks that create a fresh database (named after `label`), run `prepare` on its URL (e.g. a trigger of the
 * test's own), start two servers on it (loopback, ephemeral ports, no keys), and close and drop them after the file.
 * @returns a getter for them (throws before `beforeAll` ran).
 */
export function useTwoServers(label: string, prepare: (url: string) => Promise<void> = async () => {}): () => TwoServers {
  let database: FreshDatabase | undefined;
  let servers: TwoServers | undefined;
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;
  beforeAll(async () => {
    database = await freshPgDatabase(label);
    await prepare(database.url);
    const options = { port: 0, host: '127.0.0.1', db: database.url, log: () => {}, apiKeys: [] };
    a = await startServer(options);
    b = await startServer(options);
    servers = { url: database.url, a, b };
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });
  return () => {
    if (!servers) throw new Error('useTwoServers(): the servers start in beforeAll; read them inside a test');
    return servers;
  };
}
