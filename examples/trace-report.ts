// The end of an agent example: flush, print the trace as a tree with the root's usage and cost per model, shut down and close the servers.
import { Client, flush, shutdown } from '../src/index.js';
import { renderTrees } from '../src/cli/trace-tree.js';

/** Something the example started that it closes at the end. */
interface Closable {
  close(): Promise<unknown>;
}

/**
 * Prints `answer`, flushes, prints the trace of `call` (the root op's call) in `project` and the usage and cost it
 * adds up, then shuts weft down and closes the fake model server (if any) and weft's server.
 */
export async function reportAndClose(answer: unknown, call: { traceId: string; id: string }, project: string, server: Closable & { url: string }, fake: Closable | undefined): Promise<void> {
  console.log(`answer: ${String(answer)}\n`);
  await flush();
  const client = new Client({ baseUrl: server.url });
  const records = await client.calls.streamQuery({ project_id: project, filter: { trace_ids: [call.traceId] }, include_costs: true }).toArray();
  console.log(renderTrees(records));
  const root = records.find((r) => r.id === call.id)!;
  for (const [model, usage] of Object.entries(root.summary?.usage ?? {})) {
    const cost = root.summary?.costs?.[model];
    console.log(`usage ${model}: ${JSON.stringify(usage)}`);
    if (cost) console.log(`cost ${model}: $${cost.total_cost.toFixed(6)} (prompt $${cost.prompt_tokens_total_cost.toFixed(6)}, cached part $${(cost.cache_read_input_tokens_total_cost ?? 0).toFixed(6)}, completion $${cost.completion_tokens_total_cost.toFixed(6)})`);
  }
  await client.close();
  await shutdown();
  await fake?.close();
  await server.close();
}
