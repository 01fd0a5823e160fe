/**
 * Vercel AI SDK calls as trajectory exchanges in OpenAI's chat shape: the prompt's model messages converted, one
 * exchange per step (its text and tool calls as the choice, its tool results as tool messages after it).
 * @module
 */
import { toJSONSchema, type ZodType } from 'zod';
import { assistantMessage, functionTool, isObj, textOf, type ChatChoice, type ChatMessage, type ChatToolCall, type Exchange } from './chat-shape.js';
import type { Tool } from '../schema/trajectories.js';

type Obj = Record<string, unknown>;

/** The AI SDK's finish reasons as OpenAI's. */
const FINISH: Record<string, string> = { 'tool-calls': 'tool_calls', 'content-filter': 'content_filter', length: 'length', stop: 'stop' };

function toolCallOf(part: Obj): ChatToolCall {
  return { id: String(part['toolCallId'] ?? ''), type: 'function', function: { name: String(part['toolName'] ?? ''), arguments: JSON.stringify(part['input'] ?? {}) } };
}

/** A tool result's value as a tool message's text: text as it is, anything else as JSON. */
function resultText(output: unknown): string {
  const v = isObj(output) && typeof output['type'] === 'string' && 'value' in output ? output['value'] : output;
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}

/** The parts of a content value (a string is one text part). */
function partsOf(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as unknown[]).filter(isObj) : [];
}

/** An assistant message of its text and tool-call parts. */
function assistantOf(parts: Obj[]): ChatMessage {
  const text = parts.filter((p) => p['type'] === 'text').map((p) => String(p['text'] ?? '')).join('');
  return assistantMessage(text, parts.filter((p) => p['type'] === 'tool-call').map(toolCallOf));
}

/** The tool messages of the tool-result parts (`output` of a step's part, or of a model message's). */
function toolMessagesOf(parts: Obj[]): ChatMessage[] {
  return parts.filter((p) => p['type'] === 'tool-result').map((p) => ({ role: 'tool', tool_call_id: String(p['toolCallId'] ?? ''), content: resultText(p['output']) }));
}

/** One AI SDK model message (system, user, assistant, tool) as chat messages. */
function modelMessage(m: Obj): ChatMessage[] {
  switch (m['role']) {
    case 'assistant':
      return [assistantOf(partsOf(m['content']))];
    case 'tool':
      return toolMessagesOf(partsOf(m['content']));
    default:
      return [{ role: String(m['role']), content: textOf(m['content']) }];
  }
}

/** The prompt of the options: `system`, then `prompt` (text or messages) or `messages`. */
function promptMessages(options: Obj): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (typeof options['system'] === 'string') out.push({ role: 'system', content: options['system'] });
  const prompt = options['prompt'] ?? options['messages'];
  if (typeof prompt === 'string') out.push({ role: 'user', content: prompt });
  else if (Array.isArray(prompt)) for (const m of prompt as unknown[]) if (isObj(m)) out.push(...modelMessage(m));
  return out;
}

/** A tool's input schema as JSON Schema: an AI SDK `jsonSchema()` schema's own, or a zod 4 schema converted; else none. */
function parametersOf(schema: unknown): unknown {
  if (!isObj(schema)) return undefined;
  if (isObj(schema['jsonSchema'])) return schema['jsonSchema'];
  if (!('_zod' in schema)) return undefined;
  try {
    const { $schema: _drop, ...rest } = toJSONSchema(schema as unknown as ZodType) as Obj;
    return rest;
  } catch {
    return undefined;
  }
}

/** The `tools` option (`{name: tool}`) as function tools. */
function toolsOf(tools: unknown): Tool[] | undefined {
  if (!isObj(tools)) return undefined;
  const out = Object.entries(tools).filter(([, t]) => isObj(t)).map(([name, t]) => functionTool(name, (t as Obj)['description'], parametersOf((t as Obj)['inputSchema'] ?? (t as Obj)['parameters'])));
  return out.length > 0 ? out : undefined;
}

function choiceOf(message: ChatMessage, finish: unknown): ChatChoice {
  return { index: 0, message, finish_reason: typeof finish === 'string' ? (FINISH[finish] ?? finish) : null };
}

/**
 * The exchanges of one AI SDK call from its options and its result (or `onFinish` event): one per step, each
 * request holding the prompt and what the steps before it added; a call without steps (`generateObject`) is
 * one exchange whose choice holds the text, or the object as JSON.
 */
export function aiSdkExchanges(options: Obj, result: unknown): Exchange[] {
  if (!isObj(result)) return [];
  const tools = toolsOf(options['tools']);
  const history = promptMessages(options);
  const steps = Array.isArray(result['steps']) ? (result['steps'] as unknown[]).filter(isObj) : [];
  if (steps.length === 0) {
    const text = typeof result['text'] === 'string' ? result['text'] : 'object' in result ? JSON.stringify(result['object']) : undefined;
    return text === undefined ? [] : [{ messages: history, choice: choiceOf(assistantMessage(text, []), result['finishReason']), tools }];
  }
  const out: Exchange[] = [];
  for (const step of steps) {
    const parts = partsOf(step['content']);
    const choice = choiceOf(assistantOf(parts), step['finishReason']);
    out.push({ messages: history.slice(), choice, tools });
    history.push(choice.message, ...toolMessagesOf(parts));
  }
  return out;
}
