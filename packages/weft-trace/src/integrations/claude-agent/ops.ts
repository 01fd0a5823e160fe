/**
 * What a Claude Agent SDK session records as weft calls: the ops of the session, of each assistant turn (a model call) and of each tool use.
 * @module
 */
import { InputKeys } from '../../instrument/input-keys.js';
import type { OpDefinition } from '../../instrument/op-definition.js';
import { anthropicUsage, usageByModel } from '../../instrument/usage-model.js';

type Obj = Record<string, unknown>;

const KEYS = new InputKeys(['inputs']);

function unwrapInputs(inputs: Obj): Obj {
  const i = inputs['inputs'];
  return i !== null && typeof i === 'object' && !Array.isArray(i) ? (i as Obj) : inputs;
}

function define(name: string, displayName: string | undefined, attributes: Obj, summarize?: () => Obj): OpDefinition {
  return { name, inputKeys: KEYS, options: { attributes, callDisplayName: displayName, postprocessInputs: unwrapInputs, ...(summarize ? { summarize } : {}) } };
}

/** The session's call: op `claude_agent.query`. */
export function sessionOp(model: unknown, summarize: () => Obj): OpDefinition {
  const attributes: Obj = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'anthropic' };
  if (typeof model === 'string') attributes['gen_ai.request.model'] = model;
  return define('claude_agent.query', undefined, attributes, summarize);
}

/** What one assistant turn knows when its call ends. */
export interface TurnState {
  /** The message: assembled from the turn's stream events, else from the SDK's assistant messages (one block each). */
  message: Obj;
  /** ms from the request to its first streamed event, as the SDK measured it (`ttft_ms`). */
  ttftMs?: number | undefined;
  requestId?: string | undefined;
}

/**
 * One assistant turn as a model call: op `claude_agent.turn` with the `gen_ai.*` attributes of the provider wrappers, and
 * at its end `usage[model]` (Anthropic's usage, cache counts included: see `anthropicUsage`), `time_to_first_token_ms`,
 * finish reasons, response model and id, request id.
 */
export function turnOp(model: unknown, threadName: string | undefined, state: TurnState): OpDefinition {
  const attributes: Obj = { 'gen_ai.provider.name': 'anthropic', 'gen_ai.operation.name': 'chat' };
  if (typeof model === 'string') attributes['gen_ai.request.model'] = model;
  return define('claude_agent.turn', threadName, attributes, () => turnSummary(state));
}

function turnSummary(state: TurnState): Obj {
  const m = state.message;
  const out: Obj = {};
  const usage = usageByModel(m['model'], anthropicUsage(m['usage']));
  if (usage) out['usage'] = usage;
  if (state.ttftMs !== undefined) out['time_to_first_token_ms'] = state.ttftMs;
  if (typeof m['stop_reason'] === 'string') out['gen_ai.response.finish_reasons'] = [m['stop_reason']];
  if (typeof m['model'] === 'string') out['gen_ai.response.model'] = m['model'];
  if (typeof m['id'] === 'string') out['gen_ai.response.id'] = m['id'];
  if (state.requestId !== undefined) out['request_id'] = state.requestId;
  return out;
}

/**
 * A tool use: op `claude_agent.tool`, display name the tool's; an MCP tool (`mcp__<server>__<tool>`) carries its server
 * and tool names as `mcp.server.name` and `gen_ai.tool.name`.
 */
export function toolOp(block: Obj): OpDefinition {
  const name = String(block['name'] ?? 'tool');
  const attributes: Obj = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': block['id'] };
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) {
    attributes['mcp.server.name'] = mcp[1];
    attributes['gen_ai.tool.name'] = mcp[2];
  }
  return define('claude_agent.tool', name, attributes);
}

/** The text of a tool result's `content` (a string, or text blocks). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Obj[]).map((b) => (typeof b?.['text'] === 'string' ? b['text'] : '')).join('\n');
}

/** The error a tool use ended with: `ToolPermissionDenied` when the SDK denied it, else `ToolError`; the message is the result's text. */
export function toolError(text: string, denied: boolean): Error {
  const e = new Error(text || (denied ? 'permission denied' : 'tool error'));
  e.name = denied ? 'ToolPermissionDenied' : 'ToolError';
  e.stack = `${e.name}: ${e.message}`;
  return e;
}
