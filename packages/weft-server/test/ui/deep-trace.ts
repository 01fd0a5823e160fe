/**
 * Test helper of the viewer's layout tests: a LangGraph-like trace nested 10 deep (graph, node, chains, a tool node, an MCP
 * tool across processes, model calls at depths 4, 8 and 9 with usage), one failed tool (the root then reads
 * `descendant_error`), and a model call whose messages answer a tool call by id only, stored over `/call/upsert_batch`.
 * @module
 */

/** The model every model call reports (priced by the server: each call costs a few millionths of a dollar). */
export const DEEP_MODEL = 'gpt-4o-mini-2024-07-18';

/** One call of the trace: its op, display name, parent (index into the list), and what a model call reports. */
interface Node {
  op: string;
  name?: string;
  parent?: number;
  model?: boolean;
  fails?: boolean;
  inputs?: Record<string, unknown>;
}

/** The tool call the model asked for, answered by a `role: tool` message carrying only its id. */
export const TOOL_CALL = { id: 'call_mcp_1', name: 'lookup_weather' };

const CHAT_INPUTS = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: TOOL_CALL.id, type: 'function', function: { name: TOOL_CALL.name, arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: TOOL_CALL.id, content: '{"temp_c":21}' },
  ],
};

/** The tree, parents before children; depths 0..9. */
const NODES: Node[] = [
  { op: 'langchain.graph.LangGraph', name: 'LangGraph' }, // 0, depth 0
  { op: 'langchain.chain.agent', name: 'agent', parent: 0 }, // 1, depth 1
  { op: 'langchain.chain.RunnableSequence', name: 'RunnableSequence', parent: 1 }, // 2, depth 2
  { op: 'langchain.chain.RunnableLambda', name: 'RunnableLambda', parent: 2 }, // 3, depth 3
  { op: 'langchain.chat_model.ChatOpenAI', name: 'ChatOpenAI', parent: 3, model: true }, // 4, depth 4
  { op: 'langchain.chain.tools', name: 'tools', parent: 1 }, // 5, depth 2
  { op: 'langchain.chain.ToolNode', name: 'ToolNode', parent: 5 }, // 6, depth 3
  { op: 'langchain.tool.lookup_weather_with_a_rather_long_tool_name', name: 'lookup_weather_with_a_rather_long_tool_name', parent: 6 }, // 7, depth 4
  { op: 'mcp.callTool', name: 'mcp.callTool lookup_weather', parent: 7 }, // 8, depth 5
  { op: 'mcp.server.callTool', name: 'mcp.server.callTool lookup_weather', parent: 8 }, // 9, depth 6
  { op: 'langchain.chain.RunnableSequence', name: 'summarize_forecast_sequence', parent: 9 }, // 10, depth 7
  { op: 'langchain.chat_model.ChatOpenAI', name: 'ChatOpenAI', parent: 10, model: true, inputs: CHAT_INPUTS }, // 11, depth 8
  { op: 'openai.chat.completions.create', parent: 11, model: true, inputs: CHAT_INPUTS }, // 12, depth 9
  { op: 'langchain.tool.flaky_tool', name: 'flaky_tool', parent: 6, fails: true }, // 13, depth 4
];

const USAGE = { prompt_tokens: 13, completion_tokens: 12, total_tokens: 25, requests: 1 };

/** A UUIDv7-shaped id: the trace's `t`-th, its `n`-th call. */
const idOf = (t: number, n: number): string => `019a3c00-0000-7000-8${String(t).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`;

/** The start and end items of one copy of the trace, started `t0` (ms since the epoch). */
function items(project: string, t: number, t0: number): unknown[] {
  const traceId = idOf(t, 0);
  const at = (ms: number): string => new Date(t0 + ms).toISOString();
  return NODES.flatMap((n, i) => {
    const summary: Record<string, unknown> = {};
    if (n.model) Object.assign(summary, { usage: { [DEEP_MODEL]: USAGE }, 'gen_ai.response.model': DEEP_MODEL });
    if (i === 0) Object.assign(summary, { usage: { [DEEP_MODEL]: { prompt_tokens: 26, completion_tokens: 24, total_tokens: 50, requests: 2 } }, status_counts: { success: NODES.length - 1, error: 1 } });
    return [
      { mode: 'start', req: { start: { project_id: project, id: idOf(t, i), trace_id: traceId, ...(n.parent !== undefined ? { parent_id: idOf(t, n.parent) } : {}), op_name: n.op, ...(n.name ? { display_name: n.name } : {}), started_at: at(i * 10), inputs: n.inputs ?? { q: 'Weather in Paris?' }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: project, id: idOf(t, i), ended_at: at(400 - i * 5), ...(n.fails ? { exception: 'ToolException: timed out' } : { output: 'ok' }), summary } } },
    ];
  });
}

/** Ids of the stored trace: the trace's, and its model calls' (depths 4, 8, 9). */
export interface DeepTrace {
  traceId: string;
  modelCallIds: string[];
  /** The model call whose request answers a tool call by id only. */
  toolAnswerCallId: string;
}

/** Stores `copies` copies of the trace in `project` (the newest starting a second ago), over HTTP at `baseUrl`; the newest's ids. */
export async function storeDeepTrace(baseUrl: string, project: string, copies = 3): Promise<DeepTrace> {
  const now = Date.now();
  const batch = Array.from({ length: copies }, (_, t) => items(project, t, now - 1000 - (copies - 1 - t) * 3_600_000)).flat();
  const res = await fetch(`${baseUrl}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
  if (res.status !== 200) throw new Error(`upsert_batch: ${res.status} ${await res.text()}`);
  const t = copies - 1;
  return { traceId: idOf(t, 0), modelCallIds: NODES.flatMap((n, i) => (n.model ? [idOf(t, i)] : [])), toolAnswerCallId: idOf(t, 12) };
}
