/**
 * An Amazon Bedrock call (weft's `wrapBedrock`) read as a conversation: Converse messages and content blocks, and the
 * InvokeModel bodies of Anthropic Claude, Amazon Nova, Meta Llama and Amazon Titan Text. Pure, tested without a browser.
 * @module
 */
import type { ChatMessage, ChatPart } from './chat-message.js';
import { isMediaRef } from '../../media-ref.js';
import { isObj, mediaOf, partOf, str } from './chat-parts.js';

type Obj = Record<string, unknown>;

/** A Converse `ToolResultBlock`'s content: each block's `text` or `json` (one block: that value). */
function toolResultContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const values = content.map((c) => (isObj(c) ? (c.json ?? c.text ?? c) : c));
  return values.length === 1 ? values[0] : values;
}

/**
 * One Converse `ContentBlock`: `text`, `toolUse`, `toolResult`, `reasoningContent`, `image`, `document`, `video`;
 * any other (`cachePoint`, `guardContent`, ...) as JSON.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
 */
export function bedrockPart(b: unknown): ChatPart {
  if (!isObj(b)) return partOf(b);
  if (typeof b.text === 'string') return { kind: 'text', text: b.text };
  const { toolUse: use, toolResult: result, reasoningContent: reasoning } = b;
  if (isObj(use)) return { kind: 'tool_call', ...(str(use.toolUseId) ? { id: str(use.toolUseId)! } : {}), name: str(use.name) ?? '?', arguments: use.input };
  if (isObj(result)) return { kind: 'tool_result', ...(str(result.toolUseId) ? { id: str(result.toolUseId)! } : {}), content: toolResultContent(result.content) };
  if (isObj(reasoning)) return { kind: 'reasoning', text: str(isObj(reasoning.reasoningText) ? reasoning.reasoningText.text : undefined) ?? '(redacted)' };
  for (const media of ['image', 'document', 'video'] as const) {
    const m = b[media];
    if (isObj(m)) {
      const source = isObj(m.source) ? (m.source.bytes ?? (isObj(m.source.s3Location) ? m.source.s3Location.uri : undefined)) : undefined;
      const format = str(m.format);
      return mediaOf(media === 'image' ? 'image' : 'file', typeof source === 'string' || isMediaRef(source) ? source : undefined, format && media !== 'document' ? `${media}/${format}` : format, str(m.name));
    }
  }
  return { kind: 'json', value: b };
}

/** A Converse `Message` (`{role, content: [ContentBlock]}`); a user turn made only of tool results is shown as `tool`. */
function messageOf(m: unknown, reply: boolean): ChatMessage {
  const o = isObj(m) ? m : {};
  const parts = Array.isArray(o.content) ? o.content.map(bedrockPart) : o.content === undefined ? [] : [partOf(o.content)];
  const role = str(o.role) ?? (reply ? 'assistant' : 'user');
  const msg: ChatMessage = { role: parts.length > 0 && parts.every((p) => p.kind === 'tool_result') ? 'tool' : role, parts };
  if (reply) msg.reply = true;
  return msg;
}

/** `system` (a list of `SystemContentBlock`s: `text`, `cachePoint`, ...) as one system message. */
function systemOf(v: unknown): ChatMessage[] {
  const parts = (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((b) => !(isObj(b) && b.cachePoint !== undefined)).map(bedrockPart);
  return parts.length > 0 ? [{ role: 'system', parts }] : [];
}

/** A Converse request and response (also an Amazon Nova InvokeModel body and answer, which are alike). */
function converseChat(i: Obj, o: Obj): ChatMessage[] {
  const request = [...systemOf(i.system), ...(Array.isArray(i.messages) ? i.messages.map((m) => messageOf(m, false)) : [])];
  const out = isObj(o.output) ? o.output.message : undefined;
  if (out === undefined) return request;
  const reply = messageOf(out, true);
  if (str(o.stopReason)) reply.finishReason = str(o.stopReason)!;
  return [...request, reply];
}

const text = (role: string, t: string, reply = false, finishReason?: string): ChatMessage => ({ role, parts: [{ kind: 'text', text: t }], ...(reply ? { reply } : {}), ...(finishReason ? { finishReason } : {}) });

/**
 * The conversation of a `bedrock.*` call: Converse's `messages` when the inputs have no `body`; else the InvokeModel
 * body by family: Anthropic's Messages body (read by `anthropic`, the chat view's Anthropic reader), Nova's (as
 * Converse), Llama's `prompt` and `generation`, Titan's `inputText` and `results[].outputText`.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html
 */
export function bedrockChat(i: Obj, o: Obj, anthropic: (i: Obj, o: Obj) => ChatMessage[]): ChatMessage[] {
  const body = isObj(i.body) ? i.body : undefined;
  if (body === undefined) return converseChat(i, o);
  if (body.anthropic_version !== undefined || o.type === 'message') return anthropic(body, o);
  if (Array.isArray(body.messages)) return converseChat(body, o);
  if (typeof body.prompt === 'string') {
    return [text('user', body.prompt), ...(typeof o.generation === 'string' ? [text('assistant', o.generation, true, str(o.stop_reason))] : [])];
  }
  if (typeof body.inputText === 'string') {
    const results = Array.isArray(o.results) ? o.results.filter(isObj) : [];
    return [text('user', body.inputText), ...results.map((r) => text('assistant', str(r.outputText) ?? '', true, str(r.completionReason)))];
  }
  return [];
}
