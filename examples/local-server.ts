// The server the demo talks to: the one at WEFT_BASE_URL if set, else a local server started in-process.
import { startServer } from '../packages/weft-server/src/server/index.js';
import { shutdown } from '../packages/weft-trace/src/index.js';

/** Where to send traces, and how to stop the server when the demo started it. */
export interface DemoServer {
  url: string;
  startedHere: boolean;
  close(): Promise<void>;
}

/** Uses `WEFT_BASE_URL` when set; otherwise starts an in-memory server on a free port. */
export async function connectServer(): Promise<DemoServer> {
  const external = process.env['WEFT_BASE_URL'];
  if (external) return { url: external, startedHere: false, close: async () => {} };
  const server = await startServer({ port: 0, dbPath: ':memory:' });
  return { url: server.url, startedHere: true, close: async () => server.close() };
}

/**
 * Runs a demo's `main` against {@link connectServer}'s server, then shuts tracing down and stops the server; an error
 * is printed and sets the exit code to 1.
 */
export async function runWithServer(main: (server: DemoServer) => Promise<void>): Promise<void> {
  const server = await connectServer();
  process.exitCode = await main(server).then(
    () => 0,
    (error: unknown) => {
      console.error(error);
      return 1;
    },
  );
  await shutdown();
  await server.close();
}
