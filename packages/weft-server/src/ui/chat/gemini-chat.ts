/**
 * A Gemini request and response (`@google/genai`, the Gemini API) read as a conversation: `config.systemInstruction`, `contents` in any of its shapes, each candidate as a reply. Pure, tested without a browser.
 * @module
 */
import type { ChatMessage, ChatPart } from './chat-message.js';
import { isObj, mediaOf, partOf, str } from './chat-parts.js';

type Obj = Record<string, unknown>;

/** `image/png` → image, `audio/wav` → audio, anything else a file. */
function kindOf(mime: string | undefined): 'image' | 'audio' | 'file' {
  const top = mime?.split('/')[0];
  return top === 'image' || top === 'audio' ? top : 'file';
}

/** A blob (`inlineData`: base64 `data`) or a file (`fileData`: `fileUri`) as a media placeholder. */
function mediaPart(blob: Obj, source: unknown): ChatPart {
  const mime = str(blob.mimeType);
  return mediaOf(kindOf(mime), source, mime, str(blob.displayName));
}

/**
 * One Gemini `Part`: `text` (a `thought` as reasoning), `functionCall`, `functionResponse`, `inlineData`,
 * `fileData`; code execution and other parts as JSON; a part of another provider's shape as that.
 * @see https://ai.google.dev/api/caching#Part
 */
export function geminiPart(p: unknown): ChatPart {
  if (!isObj(p)) return partOf(p);
  if (typeof p.text === 'string') return p.thought === true ? { kind: 'reasoning', text: p.text } : { kind: 'text', text: p.text };
  const { functionCall: call, functionResponse: result, inlineData: inline, fileData: file } = p;
  if (isObj(call)) return { kind: 'tool_call', ...(str(call.id) ? { id: str(call.id)! } : {}), name: str(call.name) ?? '?', arguments: call.args };
  if (isObj(result)) {
    return { kind: 'tool_result', ...(str(result.id) ? { id: str(result.id)! } : {}), ...(str(result.name) ? { name: str(result.name)! } : {}), content: result.response };
  }
  if (isObj(inline)) return mediaPart(inline, inline.data);
  if (isObj(file)) return mediaPart(file, file.fileUri);
  return p.type === undefined ? { kind: 'json', value: p } : partOf(p);
}

const isContent = (v: unknown): v is Obj => isObj(v) && (Array.isArray(v.parts) || typeof v.role === 'string');

/** A `Content` (`{role, parts}`): `model` is the assistant; a turn made only of function responses is shown as `tool`. */
function messageOf(c: Obj, reply: boolean): ChatMessage {
  const parts = Array.isArray(c.parts) ? c.parts.map(geminiPart) : [];
  const role = c.role === 'model' ? 'assistant' : (str(c.role) ?? (reply ? 'assistant' : 'user'));
  const msg: ChatMessage = { role: parts.length > 0 && parts.every((p) => p.kind === 'tool_result') ? 'tool' : role, parts };
  if (reply) msg.reply = true;
  return msg;
}

/**
 * `contents` as the SDK takes it (`ContentListUnion`): a list of `Content`s is one message each; a string, a part
 * or a list of strings and parts is one user message.
 */
export function geminiContents(v: unknown): ChatMessage[] {
  if (v === undefined || v === null || v === '') return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > 0 && list.every(isContent)) return list.map((c) => messageOf(c, false));
  return [{ role: 'user', parts: list.map(geminiPart) }];
}

/** `config.systemInstruction` (a string, a part, parts or a `Content`) as a system message. */
function systemOf(v: unknown): ChatMessage[] {
  const parts = geminiContents(v).flatMap((m) => m.parts);
  return parts.length > 0 ? [{ role: 'system', parts }] : [];
}

/** The request's messages (system instruction, then `contents`) and each candidate's content as a reply, with its finish reason. */
export function geminiChat(i: Obj, o: Obj): ChatMessage[] {
  const config = isObj(i.config) ? i.config : {};
  const replies = Array.isArray(o.candidates)
    ? o.candidates.filter(isObj).map((c) => {
        const m = messageOf(isObj(c.content) ? c.content : {}, true);
        if (str(c.finishReason)) m.finishReason = str(c.finishReason)!;
        return m;
      })
    : [];
  return [...systemOf(config.systemInstruction), ...geminiContents(i.contents), ...replies];
}
