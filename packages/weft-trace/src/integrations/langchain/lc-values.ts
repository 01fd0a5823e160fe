/**
 * LangChain values as plain JSON for a call: messages in the OpenAI chat shape (what the viewer's chat view reads), documents, prompt values.
 * @module
 */

type Obj = Record<string, unknown>;

const ROLES: Record<string, string> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool', function: 'function', developer: 'developer' };

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A `BaseMessage` of `@langchain/core/messages` (duck-typed: `_getType()` and `content`). */
export function isMessage(v: unknown): v is Obj & { _getType(): string } {
  return isObj(v) && typeof v['_getType'] === 'function' && 'content' in v;
}

/** LangChain `ToolCall`s (`{id, name, args}`) as OpenAI `tool_calls` (`{id, type: 'function', function: {name, arguments}}`). */
function toolCalls(calls: unknown): Obj[] | undefined {
  if (!Array.isArray(calls) || calls.length === 0) return undefined;
  return calls.map((c: Obj) => ({ id: c['id'], type: 'function', function: { name: c['name'], arguments: JSON.stringify(c['args'] ?? {}) } }));
}

/**
 * A message in the OpenAI chat shape: `role` (`human` → `user`, `ai` → `assistant`, a `ChatMessage`'s own role),
 * `content` as given (a string or content blocks), `name`, an AI message's `tool_calls`, a tool message's `tool_call_id`.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function chatMessage(m: Obj & { _getType(): string }): Obj {
  const type = m._getType();
  const out: Obj = { role: ROLES[type] ?? (typeof m['role'] === 'string' ? m['role'] : type), content: m['content'] };
  if (typeof m['name'] === 'string' && m['name'] !== '') out['name'] = m['name'];
  const calls = toolCalls(m['tool_calls']);
  if (calls) out['tool_calls'] = calls;
  if (typeof m['tool_call_id'] === 'string') out['tool_call_id'] = m['tool_call_id'];
  return out;
}

/**
 * `value` with LangChain's objects made plain: messages (see {@link chatMessage}), documents as
 * `{pageContent, metadata, id?}`, prompt values as their messages (chat) or text; plain objects and arrays
 * walked (to `depth` 6); anything else as is (weft's serializer records it).
 */
export function plain(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  const o = value as Obj;
  if (isMessage(o)) return chatMessage(o);
  if (typeof o['pageContent'] === 'string') return { pageContent: o['pageContent'], metadata: o['metadata'], ...(o['id'] !== undefined ? { id: o['id'] } : {}) };
  if (typeof o['toChatMessages'] === 'function') return { messages: plain((o['toChatMessages'] as () => unknown[])(), depth + 1) };
  if (Object.getPrototypeOf(o) !== Object.prototype) return o;
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) out[k] = plain(v, depth + 1);
  return out;
}
