/**
 * Test helper: the upsert_batch items of one trace two processes sent (an agent calling an MCP tool served by another
 * process, whose handler calls a model), as weft-trace sends them, for the server's and the viewer's cross-process tests.
 * @module
 */
import { weftCallId, weftTraceId } from 'weft-trace/otel';
import { end, endItem, type Json, start, startItem } from './server-http.js';

/** The trace id (hex, as in a `traceparent`) and in weft's UUID layout. */
export const TRACE_HEX = '0195f0c2a1b27c3d8e4f5a6b7c8d9e0f';
export const TRACE = weftTraceId(TRACE_HEX);
/** The span id of the client call in process A, the parent a `traceparent` names. */
export const CLIENT_SPAN = '00000000000000c1';
/** The calls' ids, chosen as weft-trace chooses them under a `traceparent`. */
export const ID = { root: TRACE, client: weftCallId(TRACE_HEX, CLIENT_SPAN), handler: weftCallId(TRACE_HEX, '00000000000000b1'), model: weftCallId(TRACE_HEX, '00000000000000b2') };
/** The model call's usage, as the OpenAI wrapper records it. */
export const MODEL_USAGE = { 'gpt-4o-mini-2024-07-18': { prompt_tokens: 13, completion_tokens: 12, total_tokens: 25, requests: 1 } };
/** `status_counts` of `success` and `error` calls. */
export const counts = (success: number, error = 0): Json => ({ status_counts: { success, error } });

/**
 * Process A: `agent` (root) -> `mcp.callTool` (A counts it into the root). Process B, joined by `traceparent`:
 * `mcp.server.callTool` (its end says `counted_in_parent: false`) -> `openai.chat.completions.create` (B counts it).
 * @returns A's starts, A's ends, and B's batch (starts and ends).
 */
export function twoProcessItems(project: string): Record<'aStarts' | 'aEnds' | 'b', Json[]> {
  const s = (id: string, op: string, parent?: string) => startItem(start({ project_id: project, id, trace_id: TRACE, op_name: op, ...(parent ? { parent_id: parent } : {}) }));
  const e = (id: string, summary: Json, extra: Json = {}) => endItem(end(id, { project_id: project, summary, ...extra }));
  return {
    aStarts: [s(ID.root, 'agent'), s(ID.client, 'mcp.callTool', ID.root)],
    aEnds: [e(ID.client, counts(1)), e(ID.root, counts(2))],
    b: [
      s(ID.handler, 'mcp.server.callTool', ID.client),
      s(ID.model, 'openai.chat.completions.create', ID.handler),
      e(ID.model, { ...counts(1), usage: MODEL_USAGE }),
      e(ID.handler, { ...counts(2), usage: MODEL_USAGE }, { counted_in_parent: false }),
    ],
  };
}
