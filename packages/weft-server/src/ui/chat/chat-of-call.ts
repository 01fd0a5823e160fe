/**
 * A call read as a conversation, when it is one: which format its inputs and output are in (OpenAI chat
 * completions or Responses, Anthropic messages, the Vercel AI SDK and Mastra, Gemini, Amazon Bedrock, OTel GenAI messages), and its messages in
 * order, request then reply. Pure, tested without a browser.
 * @module
 */
import type { Chat, ChatFormat, ChatMessage } from './chat-message.js';
import { messageList, messageOf, nameToolResults, responseItems, systemMessage, toolCallOf } from './chat-messages.js';
import { isObj, parseArgs, partsOf, str } from './chat-parts.js';
import { bedrockChat } from './bedrock-chat.js';
import { geminiChat } from './gemini-chat.js';

/** The fields of a call record the chat view reads. */
export interface ChatCallFields {
  op_name: string;
  inputs?: unknown;
  output?: unknown;
  attributes?: unknown;
  ended_at?: string | null;
}

type Obj = Record<string, unknown>;

function provider(call: ChatCallFields): string | undefined {
  return isObj(call.attributes) ? str(call.attributes['gen_ai.provider.name']) ?? str(call.attributes['gen_ai.system']) : undefined;
}

/** Which format a call is in, `undefined` when it is not a model call with messages. */
export function chatFormat(call: ChatCallFields): ChatFormat | undefined {
  const i = isObj(call.inputs) ? call.inputs : {};
  const o = isObj(call.output) ? call.output : {};
  const op = call.op_name;
  const prov = provider(call);
  // weft's wrapBedrock: an InvokeModel body may be any provider's shape, so the op decides before the shapes do
  if (prov === 'aws.bedrock' || /^bedrock\./.test(op)) return 'bedrock';
  if (Array.isArray(o.choices) || (/openai\.chat\./.test(op) && Array.isArray(i.messages))) return 'openai-chat';
  if (o.object === 'response' || /openai\.responses\./.test(op) || (prov === 'openai' && 'input' in i)) return 'openai-responses';
  if ((o.type === 'message' && o.role === 'assistant') || (/^anthropic\./.test(op) && Array.isArray(i.messages))) return 'anthropic';
  // a Mastra model generation (weft's WeftExporter) records the AI SDK's messages and a result of the same shape
  // an AI SDK step's model request (`ai.generateText.doGenerate`, `ai.streamText.doStream`) records the prompt it sent
  if ((/^ai\.(generate|stream)(Text|Object)(\.do(Generate|Stream))?$/.test(op) || op === 'mastra.model_generation') && (i.prompt !== undefined || Array.isArray(i.messages))) return 'ai-sdk';
  if (Array.isArray(o.candidates) || (/^google_genai\.(models\.generateContent|chats\.)/.test(op) && i.contents !== undefined)) return 'gemini';
  if (messageList(i.messages) || messageList(o.messages)) return 'otel-genai';
  return undefined;
}

function openAIChat(i: Obj, o: Obj): ChatMessage[] {
  const reply = Array.isArray(o.choices)
    ? o.choices.map((c) => {
        const m = messageOf(isObj(c) ? c.message ?? c.delta : c, true);
        if (isObj(c) && str(c.finish_reason)) m.finishReason = str(c.finish_reason)!;
        return m;
      })
    : [];
  return [...(messageList(i.messages) ?? []), ...reply];
}

function responses(i: Obj, o: Obj): ChatMessage[] {
  const reply = Array.isArray(o.output) ? responseItems(o.output, true) : typeof o.output_text === 'string' ? responseItems(o.output_text, true) : [];
  return [...systemMessage(i.instructions), ...responseItems(i.input, false), ...reply];
}

function anthropic(i: Obj, o: Obj): ChatMessage[] {
  const reply = o.role === 'assistant' || Array.isArray(o.content) ? [messageOf({ role: 'assistant', ...o }, true)] : [];
  return [...systemMessage(i.system), ...(messageList(i.messages) ?? []), ...reply];
}

/**
 * The AI SDK's messages: the request's (`system` or `instructions`, `prompt`, `messages`), then the reply: all steps'
 * messages in order when the result has them (`messages`: the assistant's tool calls, the tool results, the answer),
 * else a step's reply `content` parts, else the result's text, object and tool calls, then its tool results.
 */
function aiSdk(i: Obj, o: unknown): ChatMessage[] {
  const request = [...systemMessage(i.system ?? i.instructions)];
  if (typeof i.prompt === 'string') request.push({ role: 'user', parts: [{ kind: 'text', text: i.prompt }] });
  else request.push(...(messageList(i.prompt) ?? []));
  request.push(...(messageList(i.messages) ?? []));
  if (!isObj(o)) return o === undefined || o === null ? request : [...request, { role: 'assistant', parts: partsOf(o), reply: true }];
  const finish = str(o.finishReason) ? { finishReason: str(o.finishReason)! } : {};
  const steps = messageList(o.messages, true);
  if (steps) return [...request, ...steps.slice(0, -1), { ...steps.at(-1)!, ...finish }];
  if (Array.isArray(o.content)) return [...request, { role: 'assistant', parts: partsOf(o.content), reply: true, ...finish }];
  const parts = [
    ...(typeof o.reasoningText === 'string' && o.reasoningText ? [{ kind: 'reasoning' as const, text: o.reasoningText }] : []),
    ...partsOf(o.text),
    ...(o.object !== undefined ? [{ kind: 'json' as const, value: o.object }] : []),
    ...(Array.isArray(o.toolCalls) ? o.toolCalls.map(toolCallOf) : []),
  ];
  const reply: ChatMessage[] = [{ role: 'assistant', parts, reply: true, ...finish }];
  if (Array.isArray(o.toolResults) && o.toolResults.length > 0) {
    reply.push({
      role: 'tool',
      reply: true,
      parts: o.toolResults.map((r) => {
        const x = isObj(r) ? r : {};
        return { kind: 'tool_result' as const, ...(str(x.toolCallId) ? { id: str(x.toolCallId)! } : {}), ...(str(x.toolName) ? { name: str(x.toolName)! } : {}), content: parseArgs(x.output ?? x.result) };
      }),
    });
  }
  return [...request, ...reply];
}

function otelGenAI(i: Obj, o: Obj): ChatMessage[] {
  return [...systemMessage(i.system_instructions), ...(messageList(i.messages) ?? []), ...(messageList(o.messages, true) ?? [])];
}

/**
 * The call as a conversation, or `null` when it is not one (the detail then shows JSON only). A call still
 * running has the request's messages only; a failed call's reply is empty. A tool result is named after the tool call
 * it answers when it carries only that call's id.
 */
export function chatOfCall(call: ChatCallFields): Chat | null {
  const format = chatFormat(call);
  if (format === undefined) return null;
  const i = isObj(call.inputs) ? call.inputs : {};
  const o = isObj(call.output) ? call.output : {};
  const messages =
    format === 'openai-chat' ? openAIChat(i, o)
    : format === 'openai-responses' ? responses(i, o)
    : format === 'anthropic' ? anthropic(i, o)
    : format === 'ai-sdk' ? aiSdk(i, call.output)
    : format === 'gemini' ? geminiChat(i, o)
    : format === 'bedrock' ? bedrockChat(i, o, anthropic)
    : otelGenAI(i, o);
  return messages.length > 0 ? { format, messages: nameToolResults(messages) } : null;
}
