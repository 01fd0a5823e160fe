/**
 * The OpenAI-style message, choice and tool shapes a trajectory holds, and the comparison that tells whether a
 * request continues a conversation already recorded.
 * @module
 */
import type { Tool } from '../schema/trajectories.js';

/** A chat message as OpenAI's Chat Completions API takes it (`role`, `content`, `tool_calls`, `tool_call_id`, ...). */
export type ChatMessage = Record<string, unknown> & { role: string };

/** A choice as OpenAI's Chat Completions API answers it: `index`, `message`, `finish_reason`, `logprobs` when asked. */
export type ChatChoice = Record<string, unknown> & { message: ChatMessage; finish_reason: string | null };

/** One finished model request in the trajectory's terms: the messages sent, the choice answered, the tools offered. */
export interface Exchange {
  messages: ChatMessage[];
  choice: ChatChoice;
  tools?: Tool[] | undefined;
}

/** An assistant tool call in OpenAI's shape. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

type Obj = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A JSON copy of `v` (what is stored is what the provider answered at that moment, whatever the caller changes later). */
export function jsonCopy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** The text of a content value: a string, or the `text` of its text parts joined; `''` for none. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

/** The message of an entry of `messages_and_choices`: a choice's `message`, else the entry itself. */
export function messageOf(entry: unknown): ChatMessage | undefined {
  if (!isObj(entry)) return undefined;
  if (isObj(entry['message']) && !('role' in entry)) return entry['message'] as ChatMessage;
  return entry as ChatMessage;
}

/**
 * What identifies a message when a later request repeats it: role, text, tool calls (id, name, arguments) and
 * the tool call answered. Fields the SDK adds on the way back (`refusal: null`, `annotations: []`) and the
 * form of the content (a string or text parts) do not count.
 */
export function messageKey(m: ChatMessage | undefined): string {
  if (m === undefined) return '';
  const calls = Array.isArray(m['tool_calls'])
    ? (m['tool_calls'] as Obj[]).map((c) => {
        const f = isObj(c['function']) ? c['function'] : {};
        return [c['id'], f['name'], f['arguments']];
      })
    : [];
  return JSON.stringify([m.role, textOf(m['content']), calls, m['tool_call_id'] ?? null]);
}

/** `tools` as the interface's Tool shape: OpenAI function tools kept as they are, others left out; `undefined` for none. */
export function functionTools(tools: unknown): Tool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out = tools.filter((t): t is Tool => isObj(t) && t['type'] === 'function' && isObj(t['function']) && typeof t['function']['name'] === 'string');
  return out.length > 0 ? jsonCopy(out) : undefined;
}

/** A function tool in the interface's shape. */
export function functionTool(name: string, description: unknown, parameters: unknown): Tool {
  const fn: Tool['function'] = { name };
  if (typeof description === 'string') fn.description = description;
  if (isObj(parameters)) fn.parameters = jsonCopy(parameters);
  return { type: 'function', function: fn };
}

/** An assistant message with `content` (null when empty) and `tool_calls` when there are any. */
export function assistantMessage(text: string, toolCalls: ChatToolCall[]): ChatMessage {
  const m: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) m['tool_calls'] = toolCalls;
  return m;
}
