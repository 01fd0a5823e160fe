// Prints one trace of a model-calling example: its tree, then the root's usage per model and what it cost (the server's include_costs).
import { Client } from '../packages/weft-trace/src/index.js';
import type { CallRecord } from '../packages/weft-trace/src/schema/index.js';
import { renderTrees } from '../packages/weft-server/src/cli/trace-tree.js';

/** Reads the trace of the call `root` (ids as `invoke()` gives them) from the server at `baseUrl`, prints it, and returns its calls. */
export async function printTraceCost(baseUrl: string, project: string, root: { id: string; traceId: string }): Promise<CallRecord[]> {
  const client = new Client({ baseUrl });
  try {
    const records = await client.calls.streamQuery({ project_id: project, filter: { trace_ids: [root.traceId] }, include_costs: true }).toArray();
    console.log(renderTrees(records));
    const summary = records.find((r) => r.id === root.id)?.summary;
    for (const [model, usage] of Object.entries(summary?.usage ?? {})) {
      const cost = summary?.costs?.[model];
      console.log(`usage ${model}: ${JSON.stringify(usage)}`);
      if (cost) console.log(`cost ${model}: $${cost.total_cost.toFixed(6)} (prompt $${cost.prompt_tokens_total_cost.toFixed(6)}, cached part $${(cost.cache_read_input_tokens_total_cost ?? 0).toFixed(6)}, completion $${cost.completion_tokens_total_cost.toFixed(6)})`);
    }
    return records;
  } finally {
    await client.close();
  }
}
