/**
 * OpenAI requests and answers as trajectory exchanges: Chat Completions as they are, the Responses API's input
 * items and output converted to chat messages and one choice.
 * @module
 */
import { assistantMessage, functionTool, functionTools, isObj, jsonCopy, textOf, type ChatMessage, type ChatToolCall, type Exchange } from './chat-shape.js';
import type { Tool } from '../schema/trajectories.js';

type Obj = Record<string, unknown>;

/** A Chat Completions request and its completion (or folded stream): the messages and the first choice as sent and answered. */
export function chatExchange(request: Obj, response: unknown): Exchange | undefined {
  const choices = isObj(response) ? response['choices'] : undefined;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  if (!isObj(choice) || !isObj(choice['message']) || !Array.isArray(request['messages'])) return undefined;
  return { messages: jsonCopy(request['messages'] as ChatMessage[]), choice: jsonCopy(choice) as Exchange['choice'], tools: functionTools(request['tools']) };
}

/** A Responses API `function_call` item (input or output) as a chat tool call. */
function toolCallOf(item: Obj): ChatToolCall {
  return { id: String(item['call_id'] ?? item['id'] ?? ''), type: 'function', function: { name: String(item['name'] ?? ''), arguments: String(item['arguments'] ?? '') } };
}

/** Input items (messages, function calls and their outputs) as chat messages; consecutive function calls form one assistant message. */
function inputMessages(input: unknown): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  const out: ChatMessage[] = [];
  for (const item of input as unknown[]) {
    if (!isObj(item)) continue;
    if (item['type'] === 'function_call') {
      const last = out.at(-1);
      const calls = last?.role === 'assistant' && Array.isArray(last['tool_calls']) ? (last['tool_calls'] as ChatToolCall[]) : undefined;
      if (calls) calls.push(toolCallOf(item));
      else out.push(assistantMessage('', [toolCallOf(item)]));
    } else if (item['type'] === 'function_call_output') {
      out.push({ role: 'tool', tool_call_id: String(item['call_id'] ?? ''), content: typeof item['output'] === 'string' ? item['output'] : JSON.stringify(item['output']) });
    } else if (typeof item['role'] === 'string') {
      const role = item['role'] === 'developer' ? 'system' : item['role'];
      out.push({ role, content: textOf(item['content']) });
    }
  }
  return out;
}

/** Function tools of a Responses request (`{type:'function', name, description, parameters}`) in the interface's shape. */
function responsesTools(tools: unknown): Tool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out = (tools as unknown[]).filter(isObj).filter((t) => t['type'] === 'function' && typeof t['name'] === 'string');
  return out.length > 0 ? out.map((t) => functionTool(t['name'] as string, t['description'], t['parameters'])) : undefined;
}

/**
 * A Responses API request and response (or folded stream) as one exchange: `instructions` as a system message,
 * `input` as messages, the output's text and function calls as one assistant choice (`finish_reason`:
 * `tool_calls` with calls, `length` when incomplete for tokens, else `stop`).
 * A request continuing by `previous_response_id` only holds its new input, so it starts a new history.
 */
export function responsesExchange(request: Obj, response: unknown): Exchange | undefined {
  if (!isObj(response)) return undefined;
  const messages = inputMessages(request['input']);
  if (typeof request['instructions'] === 'string') messages.unshift({ role: 'system', content: request['instructions'] });
  let text = '';
  const calls: ChatToolCall[] = [];
  for (const item of Array.isArray(response['output']) ? (response['output'] as unknown[]) : []) {
    if (!isObj(item)) continue;
    if (item['type'] === 'message') text += textOf(item['content']);
    if (item['type'] === 'function_call') calls.push(toolCallOf(item));
  }
  if (text === '' && calls.length === 0 && typeof response['output_text'] === 'string') text = response['output_text'];
  const incomplete = isObj(response['incomplete_details']) ? response['incomplete_details']['reason'] : undefined;
  const finish = calls.length > 0 ? 'tool_calls' : incomplete === 'max_output_tokens' ? 'length' : incomplete ? 'content_filter' : 'stop';
  return { messages, choice: { index: 0, message: assistantMessage(text, calls), finish_reason: finish }, tools: responsesTools(request['tools']) };
}
