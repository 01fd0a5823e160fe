/**
 * Chat messages of each OTel convention read into one shape, `{role, content, ...}`, for the attribute table.
 * @module
 */

/** An OTel attribute value (`@opentelemetry/api` `AttributeValue`), or what a JSON attribute parses to. */
export type AttrValue = unknown;
/** A span's attributes, flat, keyed by their dotted names. */
export type Attrs = Readonly<Record<string, AttrValue>>;

/** One chat message in weft's shape: `role`, and `content` as a string when all of it is text, else its parts. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/**
 * `value` parsed when it is a string holding JSON (an object or array; with `anyJson`, any JSON text, for
 * attributes that are always JSON-encoded), else `value` itself.
 */
export function parseJson(value: AttrValue, anyJson = false): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (!anyJson && t[0] !== '{' && t[0] !== '[') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The text of a part of any convention: `content` (GenAI), `text` (Vercel AI SDK, OpenAI), else undefined. */
function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (!isObject(part) || (part.type !== undefined && part.type !== 'text')) return undefined;
  const text = part.content ?? part.text;
  return typeof text === 'string' ? text : undefined;
}

/** Parts joined into one string when every part is text, else the parts as given. */
function contentOf(parts: unknown): unknown {
  if (!Array.isArray(parts)) return parts;
  const texts = parts.map(partText);
  return texts.every((t) => t !== undefined) ? texts.join('') : parts;
}

/**
 * One message of any convention to `{role, content}`: GenAI current (`parts`, `finish_reason`), OpenAI-style
 * (`content` string or parts, `tool_calls`) and the Vercel AI SDK (`content` parts with `text`). Other fields are kept.
 */
export function normalizeMessage(raw: unknown): ChatMessage {
  if (!isObject(raw)) return { role: 'unknown', content: raw };
  const { role, parts, content, ...rest } = raw;
  const msg: ChatMessage = { role: typeof role === 'string' ? role : 'unknown' };
  const body = parts ?? content;
  if (body !== undefined) msg.content = contentOf(body);
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null) msg[k] = v;
  return msg;
}

/** A JSON attribute holding an array of messages, normalized; `undefined` when it is not one. */
export function messagesFrom(value: AttrValue): ChatMessage[] | undefined {
  const parsed = parseJson(value);
  return Array.isArray(parsed) ? parsed.map(normalizeMessage) : undefined;
}

/**
 * Indexed flat messages (`<prefix>.0.role`, `<prefix>.0.content`, `<prefix>.1.role`, ...; OpenInference nests
 * them under `.message.`) gathered into messages in index order; `undefined` when there is none. `keys`
 * receives every attribute read, so the caller can leave them out of `attributes`.
 */
export function indexedMessages(attrs: Attrs, prefix: string, inner: string, keys: Set<string>): ChatMessage[] | undefined {
  const byIndex = new Map<number, Record<string, unknown>>();
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf('.');
    const index = Number(rest.slice(0, dot));
    if (dot < 0 || !Number.isInteger(index)) continue;
    let field = rest.slice(dot + 1);
    if (inner) {
      if (!field.startsWith(inner)) continue;
      field = field.slice(inner.length);
    }
    let msg = byIndex.get(index);
    if (!msg) byIndex.set(index, (msg = {}));
    msg[field] = value;
    keys.add(key);
  }
  if (byIndex.size === 0) return undefined;
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, m]) => normalizeMessage(m));
}

/** Messages of a request body (`{messages}` as OpenAI takes it), normalized; `undefined` otherwise. */
export function requestMessages(value: unknown): ChatMessage[] | undefined {
  return isObject(value) && Array.isArray(value.messages) ? value.messages.map(normalizeMessage) : undefined;
}

/** Messages of a response body (OpenAI `choices[].message`), normalized; `undefined` otherwise. */
export function responseMessages(value: unknown): ChatMessage[] | undefined {
  if (!isObject(value) || !Array.isArray(value.choices)) return undefined;
  return value.choices.map((c: unknown) => {
    const msg = normalizeMessage(isObject(c) ? c.message : c);
    if (isObject(c) && typeof c.finish_reason === 'string') msg.finish_reason = c.finish_reason;
    return msg;
  });
}

/** The Vercel AI SDK's `ai.prompt` (`{system?, prompt?, messages?}`) as messages; `undefined` when it is not one. */
export function vercelPromptMessages(value: AttrValue): ChatMessage[] | undefined {
  const p = parseJson(value);
  if (!isObject(p)) return undefined;
  const out: ChatMessage[] = [];
  if (typeof p.system === 'string') out.push({ role: 'system', content: p.system });
  if (Array.isArray(p.messages)) out.push(...p.messages.map(normalizeMessage));
  else if (typeof p.prompt === 'string') out.push({ role: 'user', content: p.prompt });
  else if (Array.isArray(p.prompt)) out.push(...p.prompt.map(normalizeMessage));
  return out.length > 0 ? out : undefined;
}
