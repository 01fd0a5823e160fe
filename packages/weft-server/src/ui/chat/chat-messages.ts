/**
 * One message of any provider's shape to a {@link ChatMessage}: role, content parts, OpenAI `tool_calls`,
 * tool results, refusals and output audio. Pure, tested without a browser.
 * @module
 */
import type { ChatMessage, ChatPart } from './chat-message.js';
import { isObj, mediaOf, parseArgs, partsOf, str } from './chat-parts.js';

/** An OpenAI-style tool call (`{id, function: {name, arguments}}`) or the AI SDK's (`{toolCallId, toolName, input}`). */
export function toolCallOf(c: unknown): ChatPart {
  if (!isObj(c)) return { kind: 'json', value: c };
  const fn = isObj(c.function) ? c.function : c;
  const id = str(c.id) ?? str(c.toolCallId) ?? str(c.call_id);
  const name = str(fn.name) ?? str(c.toolName) ?? '?';
  return { kind: 'tool_call', ...(id ? { id } : {}), name, arguments: parseArgs(fn.arguments ?? c.input ?? c.args) };
}

/**
 * A message `{role, content | parts, tool_calls?, tool_call_id?, refusal?, audio?, name?}` of any known format.
 * A tool message's content becomes one tool result; a user message made only of tool results (Anthropic,
 * the AI SDK) is shown with the role `tool`.
 *
 * @param raw - the message as stored.
 * @param reply - whether it is the model's answer (the call's output).
 */
export function messageOf(raw: unknown, reply = false): ChatMessage {
  if (!isObj(raw)) return { role: 'unknown', parts: partsOf(raw), ...(reply ? { reply } : {}) };
  const role = str(raw.role) ?? (reply ? 'assistant' : 'unknown');
  let parts = partsOf(raw.content ?? raw.parts);
  const callId = str(raw.tool_call_id) ?? str(raw.toolCallId) ?? (role === 'tool' ? str(raw.id) : undefined);
  if ((role === 'tool' || role === 'function') && parts.every((p) => p.kind !== 'tool_result')) {
    const text = parts.every((p) => p.kind === 'text') ? parts.map((p) => (p as { text: string }).text).join('') : undefined;
    parts = [{ kind: 'tool_result', ...(callId ? { id: callId } : {}), ...(str(raw.name) ? { name: str(raw.name)! } : {}), content: text !== undefined ? parseArgs(text) : raw.content }];
  }
  if (typeof raw.refusal === 'string' && raw.refusal !== '') parts.push({ kind: 'refusal', text: raw.refusal });
  if (typeof raw.reasoning_content === 'string' && raw.reasoning_content !== '') parts.unshift({ kind: 'reasoning', text: raw.reasoning_content });
  if (isObj(raw.audio)) {
    parts.push(mediaOf('audio', raw.audio.data, undefined));
    if (typeof raw.audio.transcript === 'string') parts.push({ kind: 'text', text: raw.audio.transcript });
  }
  const calls = raw.tool_calls ?? raw.toolCalls;
  if (Array.isArray(calls)) parts.push(...calls.map(toolCallOf));
  const msg: ChatMessage = { role: role !== 'tool' && parts.length > 0 && parts.every((p) => p.kind === 'tool_result') ? 'tool' : role, parts };
  if (str(raw.name) && role !== 'tool') msg.name = str(raw.name)!;
  if (reply) msg.reply = true;
  const finish = str(raw.finish_reason) ?? str(raw.stop_reason) ?? str(raw.finishReason);
  if (finish) msg.finishReason = finish;
  return msg;
}

/** A list of messages, or `undefined` when `v` is not an array of objects each with a string `role`. */
export function messageList(v: unknown, reply = false): ChatMessage[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || !v.every((m) => isObj(m) && typeof m.role === 'string')) return undefined;
  return v.map((m) => messageOf(m, reply));
}

/** A system prompt given apart from the messages (a string or text parts), as a system message. */
export function systemMessage(v: unknown): ChatMessage[] {
  const parts = partsOf(v);
  return parts.length > 0 ? [{ role: 'system', parts }] : [];
}

/**
 * OpenAI Responses API items (`input` or `output`): messages, `function_call`, `function_call_output`,
 * `reasoning`; anything else kept as JSON.
 */
export function responseItems(v: unknown, reply: boolean): ChatMessage[] {
  if (typeof v === 'string') return [{ role: reply ? 'assistant' : 'user', parts: [{ kind: 'text', text: v }], ...(reply ? { reply } : {}) }];
  if (!Array.isArray(v)) return [];
  const out: ChatMessage[] = [];
  const mark = (m: ChatMessage): ChatMessage => (reply ? { ...m, reply } : m);
  for (const item of v) {
    if (!isObj(item)) continue;
    const type = str(item.type);
    if (type === 'function_call') out.push(mark({ role: 'assistant', parts: [toolCallOf({ ...item, id: item.call_id ?? item.id })] }));
    else if (type === 'function_call_output') out.push(mark({ role: 'tool', parts: [{ kind: 'tool_result', ...(str(item.call_id) ? { id: str(item.call_id)! } : {}), content: parseArgs(item.output) }] }));
    else if (type === 'reasoning') {
      const text = Array.isArray(item.summary) ? item.summary.map((s) => (isObj(s) ? str(s.text) ?? '' : '')).join('\n') : '';
      out.push(mark({ role: 'assistant', parts: [{ kind: 'reasoning', text: text || '(reasoning not shown)' }] }));
    } else if (type === undefined || type === 'message') out.push(messageOf(item, reply));
    else out.push(mark({ role: reply ? 'assistant' : 'user', parts: [{ kind: 'json', value: item }] }));
  }
  return out;
}

/**
 * Names each tool result that carries only the id of the call it answers (OpenAI's `role: tool` `tool_call_id`, the
 * Responses API's `function_call_output`, Anthropic's `tool_use_id`) after the earlier tool call of that id; changes
 * `messages` in place and returns them.
 */
export function nameToolResults(messages: ChatMessage[]): ChatMessage[] {
  const names = new Map<string, string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.kind === 'tool_call' && p.id !== undefined && p.name !== '?') names.set(p.id, p.name);
      else if (p.kind === 'tool_result' && p.name === undefined && p.id !== undefined && names.has(p.id)) p.name = names.get(p.id)!;
    }
  }
  return messages;
}

/**
 * An RL trajectory's `messages_and_choices` (the training interface's shape): a message as any message, a choice
 * (`{message, finish_reason, logprobs?}`, no `role` of its own) as its message, marked as the model's reply.
 */
export function messagesAndChoices(entries: readonly unknown[]): ChatMessage[] {
  return nameToolResults(entries.map((e) => (isObj(e) && isObj(e.message) && !('role' in e)
    ? messageOf({ ...e.message, ...(str(e.finish_reason) ? { finish_reason: e.finish_reason } : {}) }, true)
    : messageOf(e))));
}
