// Runs an example's body with a typed client for the demo server, then closes both; failures set exit code 1.
import { Client } from '../packages/weft-trace/src/index.js';
import { connectServer, type DemoServer } from './local-server.js';

/**
 * Connects to `WEFT_BASE_URL` (or starts an in-memory server), makes a `Client` (API key from
 * `WEFT_API_KEY`), runs `body`, and closes the client and server whatever happens.
 */
export function runWithClient(body: (client: Client, server: DemoServer) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const server = await connectServer();
    const client = new Client({ baseUrl: server.url });
    try {
      await body(client, server);
    } finally {
      await client.close();
      await server.close();
    }
  };
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
