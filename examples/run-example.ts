// Scaffold of the small op() examples: a server, init(), the example's body, then its traces read back and printed as trees.
import { flush, init, shutdown, type Client, type InitOptions } from '../packages/weft-trace/src/index.js';
import type { CallRecord } from '../packages/weft-trace/src/schema/index.js';
import { connectServer } from './local-server.js';
import { renderTrees } from '../packages/weft-server/src/cli/trace-tree.js';
import { readTraces } from './read-traces.js';

/** What an example's body gets. */
export interface ExampleContext {
  client: Client;
  project: string;
  /** Flushes and reads back the calls recorded so far by this run. */
  recorded(): Promise<CallRecord[]>;
}

/**
 * Runs `body` against `WEFT_BASE_URL` or an in-process server, in project `WEFT_PROJECT` or `local/<name>`,
 * then prints the run's trace trees. Sets the exit code to 1 on failure.
 */
export async function runExample(name: string, body: (ctx: ExampleContext) => Promise<void>, options: InitOptions = {}): Promise<void> {
  const server = await connectServer();
  const project = process.env['WEFT_PROJECT'] ?? `local/${name}`;
  try {
    const client = init({ project, baseUrl: server.url, ...options });
    const sinceMs = Date.now();
    const recorded = async () => {
      await flush();
      return readTraces(client, project, sinceMs);
    };
    await body({ client, project, recorded });
    console.log(`\nTraces:\n${renderTrees(await recorded())}`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await shutdown();
    await server.close();
  }
}
