/**
 * Anthropic Messages requests and answers as trajectory exchanges in OpenAI's chat shape: `system` as a system
 * message, text blocks as content, `tool_use` as tool calls, `tool_result` as tool messages, stop reasons as finish reasons.
 * @module
 */
import { assistantMessage, functionTool, isObj, textOf, type ChatMessage, type ChatToolCall, type Exchange } from './chat-shape.js';
import type { Tool } from '../schema/trajectories.js';

type Obj = Record<string, unknown>;

/** Anthropic's stop reasons as OpenAI's finish reasons; others pass as they are. */
const FINISH: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter', pause_turn: 'stop' };

/** A `tool_use` block as a chat tool call (its input as JSON text). */
function toolCallOf(block: Obj): ChatToolCall {
  return { id: String(block['id'] ?? ''), type: 'function', function: { name: String(block['name'] ?? ''), arguments: JSON.stringify(block['input'] ?? {}) } };
}

/** The blocks of a content value (a string is one text block). */
function blocksOf(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as unknown[]).filter(isObj) : [];
}

/** An assistant turn: its text blocks joined, its `tool_use` blocks as tool calls. */
function assistantOf(content: unknown): ChatMessage {
  const blocks = blocksOf(content);
  const text = blocks.filter((b) => b['type'] === 'text').map((b) => String(b['text'] ?? '')).join('');
  return assistantMessage(text, blocks.filter((b) => b['type'] === 'tool_use').map(toolCallOf));
}

/** A user turn: one tool message per `tool_result` block, then the rest as one user message (when it has text). */
function userOf(content: unknown): ChatMessage[] {
  const out: ChatMessage[] = [];
  const rest: Obj[] = [];
  for (const b of blocksOf(content)) {
    if (b['type'] === 'tool_result') out.push({ role: 'tool', tool_call_id: String(b['tool_use_id'] ?? ''), content: textOf(b['content']) });
    else rest.push(b);
  }
  if (rest.length > 0 || out.length === 0) out.push({ role: 'user', content: typeof content === 'string' ? content : textOf(rest) });
  return out;
}

/** The tools of a request with an `input_schema` (client tools) as function tools. */
function toolsOf(tools: unknown): Tool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out = (tools as unknown[]).filter(isObj).filter((t) => typeof t['name'] === 'string' && isObj(t['input_schema']));
  return out.length > 0 ? out.map((t) => functionTool(t['name'] as string, t['description'], t['input_schema'])) : undefined;
}

/** A Messages request and its message (or folded stream) as one exchange. */
export function anthropicExchange(request: Obj, response: unknown): Exchange | undefined {
  if (!isObj(response) || !Array.isArray(request['messages'])) return undefined;
  const messages: ChatMessage[] = [];
  const system = textOf(request['system']);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const m of request['messages'] as unknown[]) {
    if (!isObj(m)) continue;
    if (m['role'] === 'assistant') messages.push(assistantOf(m['content']));
    else messages.push(...userOf(m['content']));
  }
  const stop = typeof response['stop_reason'] === 'string' ? response['stop_reason'] : null;
  const choice = { index: 0, message: assistantOf(response['content']), finish_reason: stop === null ? null : (FINISH[stop] ?? stop) };
  return { messages, choice, tools: toolsOf(request['tools']) };
}
