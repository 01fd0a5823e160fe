// Test helper: one typed client per test file, pointed at the file's test server and closed after.
import { afterAll, beforeAll } from 'vitest';
import { Client, type ClientOptions } from 'weft-trace';
import type { RunningServer } from 'weft-server';

/**
 * Registers hooks creating a `Client` for `server()` (no retries, so errors surface at once) and closing it.
 *
 * @param server - the getter returned by `useTestServer()`.
 * @param options - more client options (e.g. `apiKey`).
 * @returns a getter for the client (valid inside tests).
 */
export function useTestClient(server: () => RunningServer, options: ClientOptions = {}): () => Client {
  let client: Client | undefined;
  beforeAll(() => {
    client = new Client({ baseUrl: server().url, maxRetries: 0, ...options });
  });
  afterAll(async () => {
    await client?.close();
  });
  return () => {
    if (!client) throw new Error('useTestClient(): the client is created in beforeAll; read it inside a test');
    return client;
  };
}
