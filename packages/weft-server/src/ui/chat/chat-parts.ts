/**
 * Message content of any provider's shape to {@link ChatPart}s: strings, text parts, tool calls and results,
 * images / audio / files with their stored file's reference (issue 51), or as placeholders with their size. Pure,
 * tested without a browser.
 * @module
 */
import { isMediaRef, type MediaRef } from '../../media-ref.js';
import type { ChatPart } from './chat-message.js';

type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const TRUNCATED = /…\[truncated (\d+) chars\]$/;

/**
 * Bytes encoded by base64 text `data` (a `data:` URL's payload or plain base64). A string weft cut at capture
 * (`…[truncated N chars]`) counts its whole original length.
 */
export function base64Bytes(data: string): number {
  const m = TRUNCATED.exec(data);
  const body = m ? data.slice(0, m.index) : data;
  const payload = body.startsWith('data:') ? body.slice(body.indexOf(',') + 1) : body;
  const chars = payload.length + (m ? Number(m[1]) : 0);
  const pad = m ? 0 : payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((chars * 3) / 4) - pad);
}

/** The part of a media reference the SDK left in place of the bytes: its stored file, type and size. */
export function mediaOfRef(ref: MediaRef, name?: string): Extract<ChatPart, { kind: 'media' }> {
  const top = ref.mime_type.split('/')[0];
  const media = top === 'image' || top === 'audio' ? top : 'file';
  return { kind: 'media', media, mime: ref.mime_type, bytes: ref.size_bytes, ref, ...(name ? { name } : {}) };
}

/**
 * A media part from a URL, inline data or a media reference: a reference gives its stored file, `data:` URLs and
 * base64 a size, http(s) URLs a link.
 */
export function mediaOf(media: 'image' | 'audio' | 'file', source: unknown, mime?: string, name?: string): ChatPart {
  if (isMediaRef(source)) return { ...mediaOfRef(source, name), media };
  const part: Extract<ChatPart, { kind: 'media' }> = { kind: 'media', media };
  const s = str(source);
  if (s !== undefined) {
    const dataUrl = /^data:([^;,]+)/.exec(s);
    if (dataUrl) part.mime = dataUrl[1];
    if (/^(https?|gs|s3):/.test(s)) part.url = s;
    else part.bytes = base64Bytes(s);
  }
  if (mime && !part.mime) part.mime = mime;
  if (name) part.name = name;
  return part;
}

/** JSON text parsed (tool arguments are JSON text in most formats); other values as they are. */
export function parseArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** `modality` or a MIME type's top level as a media kind. */
function mediaKind(modality: unknown, mime: unknown): 'image' | 'audio' | 'file' {
  const m = str(modality) ?? str(mime)?.split('/')[0];
  return m === 'image' || m === 'audio' ? m : 'file';
}

/** One content part of any known shape (OpenAI chat and Responses, Anthropic, the AI SDK, OTel GenAI). */
export function partOf(p: unknown): ChatPart {
  if (typeof p === 'string') return { kind: 'text', text: p };
  if (!isObj(p)) return { kind: 'json', value: p };
  if (isMediaRef(p)) return mediaOfRef(p);
  const type = str(p.type);
  switch (type) {
    case undefined:
    case 'text':
    case 'input_text':
    case 'output_text': {
      const text = str(p.text) ?? str(p.content);
      return text !== undefined ? { kind: 'text', text } : { kind: 'json', value: p };
    }
    case 'refusal':
      return { kind: 'refusal', text: str(p.refusal) ?? str(p.text) ?? '' };
    case 'reasoning':
    case 'thinking':
    case 'redacted_thinking':
      return { kind: 'reasoning', text: str(p.text) ?? str(p.thinking) ?? str(p.content) ?? (type === 'redacted_thinking' ? '(redacted)' : '') };
    case 'image_url': {
      const u = isObj(p.image_url) ? p.image_url.url : p.image_url;
      return mediaOf('image', u);
    }
    case 'input_image':
      return mediaOf('image', p.image_url ?? p.file_id);
    case 'input_audio': {
      const a = isObj(p.input_audio) ? p.input_audio : p;
      return mediaOf('audio', a.data, str(a.format) ? `audio/${str(a.format)}` : undefined);
    }
    case 'input_file':
    case 'file': {
      const f = isObj(p.file) ? p.file : p;
      return mediaOf(mediaKind(undefined, f.mediaType ?? f.mime_type), f.file_data ?? f.data ?? f.url ?? f.file_id, str(f.mediaType) ?? str(f.mime_type), str(f.filename));
    }
    case 'image':
    case 'document':
    case 'audio': {
      // Anthropic: { source: { type: base64 | url, media_type, data | url } }; the AI SDK: { image, mediaType }
      const src = isObj(p.source) ? p.source : undefined;
      const kind = type === 'document' ? 'file' : type;
      return mediaOf(kind, src ? (src.data ?? src.url) : (p.image ?? p.data ?? p.url), str(src?.media_type) ?? str(p.mediaType) ?? str(p.mime_type));
    }
    case 'blob':
    case 'uri':
      // OTel GenAI: { modality, mime_type, content | uri }
      return mediaOf(mediaKind(p.modality, p.mime_type), p.content ?? p.uri, str(p.mime_type));
    case 'tool_use':
    case 'server_tool_use':
      return { kind: 'tool_call', ...(str(p.id) ? { id: str(p.id)! } : {}), name: str(p.name) ?? '?', arguments: p.input };
    case 'tool-call':
      return { kind: 'tool_call', ...(str(p.toolCallId) ? { id: str(p.toolCallId)! } : {}), name: str(p.toolName) ?? '?', arguments: parseArgs(p.input ?? p.args) };
    case 'tool_call':
    case 'function_call':
      return { kind: 'tool_call', ...(str(p.id ?? p.call_id) ? { id: str(p.call_id ?? p.id)! } : {}), name: str(p.name) ?? '?', arguments: parseArgs(p.arguments) };
    case 'tool_result':
      return { kind: 'tool_result', ...(str(p.tool_use_id) ? { id: str(p.tool_use_id)! } : {}), content: contentValue(p.content) };
    case 'tool-result':
      return { kind: 'tool_result', ...(str(p.toolCallId) ? { id: str(p.toolCallId)! } : {}), ...(str(p.toolName) ? { name: str(p.toolName)! } : {}), content: resultValue(p.output ?? p.result) };
    case 'tool_call_response':
    case 'function_call_output':
      return { kind: 'tool_result', ...(str(p.id ?? p.call_id) ? { id: str(p.call_id ?? p.id)! } : {}), content: parseArgs(p.response ?? p.output) };
    default:
      return { kind: 'json', value: p };
  }
}

/** A tool result's content: text parts joined into one string, else the value parsed. */
function contentValue(v: unknown): unknown {
  if (Array.isArray(v)) {
    const parts = v.map(partOf);
    if (parts.every((x) => x.kind === 'text')) return parts.map((x) => (x as { text: string }).text).join('');
  }
  return parseArgs(v);
}

/** The AI SDK's tool output `{ type: 'text' | 'json', value }`, unwrapped. */
function resultValue(v: unknown): unknown {
  if (isObj(v) && (v.type === 'text' || v.type === 'json') && 'value' in v) return v.value;
  return v;
}

/** A message's content (a string, an array of parts, null) as parts; empty strings dropped. */
export function partsOf(content: unknown): ChatPart[] {
  if (content === null || content === undefined || content === '') return [];
  if (Array.isArray(content)) return content.map(partOf);
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  return [partOf(content)];
}
