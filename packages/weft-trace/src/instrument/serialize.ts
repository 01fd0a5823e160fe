/**
 * Turns any JS value into a JSON-safe value without throwing and without mutating it (cycles, limits, odd types, redaction).
 * @module
 */
import { cutString, SIZE_LIMIT_MARK, TRUNCATED_KEYS_KEY, truncatedMark, truncatedValue } from '../internal/truncation.js';
import { base64Of } from '../internal/runtime.js';
import { safeMessage } from '../internal/safe-message.js';
import { KeyRedactor, REDACTED } from './redact.js';
import { mediaOfBlob, mediaOfBytes, mediaOfText, MediaValue, type MediaSink } from './media-value.js';
import { MIN_BASE64_MEDIA_CHARS } from './media-sniff.js';

/** Limits of {@link serialize}. Every cut is marked in the output (see docs/tracing.md, "Serialization"). */
export interface SerializeLimits {
  /** Nesting depth kept; deeper objects become `"[MaxDepth]"`. @defaultValue 12 */
  maxDepth: number;
  /** Characters kept per string; longer strings are cut and end in `…[truncated N chars]`. @defaultValue 10000 */
  maxStringLength: number;
  /** Keys kept per object and items per array, Map or Set; the rest are replaced by one marker. @defaultValue 1000 */
  maxItems: number;
  /** Bytes of binary data kept (as base64) per typed array, Buffer or ArrayBuffer. @defaultValue 1024 */
  maxBinaryBytes: number;
  /**
   * Approximate JSON size kept per serialized value, in characters (strings and keys by length, other leaves
   * at most 24); once spent, the rest of each object or array is replaced by `"[truncated: size limit]"`.
   * @defaultValue 262144
   */
  maxTotalSize: number;
}

/** Options of {@link serialize}: limits, plus the key names whose values become `"REDACTED"`. */
export interface SerializeOptions extends Partial<SerializeLimits> {
  /** Keys redacted at any depth (matching rules: {@link KeyRedactor}). @defaultValue none */
  redactKeys?: readonly string[];
  /**
   * Where media found in a value go (base64 `data:` URLs, long base64 text, `Uint8Array`, `ArrayBuffer`, `Blob`,
   * `weftMedia()`): each becomes a {@link MediaValue} (a `MediaRef` once serialized). @defaultValue none: media stay
   * as they are (binary values as a base64 preview of `maxBinaryBytes`)
   */
  media?: MediaSink | undefined;
}

/** Limits used when none are given. */
export const DEFAULT_LIMITS: Readonly<SerializeLimits> = Object.freeze({
  maxDepth: 12,
  maxStringLength: 10_000,
  maxItems: 1000,
  maxBinaryBytes: 1024,
  maxTotalSize: 262_144,
});

/** Resolved serialization settings, built once (e.g. by `init()`) and reused on every call. */
export interface SerializeConfig {
  readonly limits: Readonly<SerializeLimits>;
  readonly redactor: KeyRedactor | undefined;
  /** Where media go; `undefined`: media are not told apart. */
  readonly media?: MediaSink | undefined;
}

/** The config used before `init()` and by {@link serialize} without options: default limits, no redaction. */
export const DEFAULT_SERIALIZE_CONFIG: SerializeConfig = { limits: DEFAULT_LIMITS, redactor: undefined };

/** Builds a reusable {@link SerializeConfig} from options. */
export function serializeConfig(options: SerializeOptions = {}): SerializeConfig {
  const { redactKeys, media, ...limits } = options;
  return {
    limits: { ...DEFAULT_LIMITS, ...limits },
    redactor: redactKeys && redactKeys.length > 0 ? new KeyRedactor(redactKeys) : undefined,
    media,
  };
}

/**
 * Converts `value` to something `JSON.stringify` accepts; never throws and never mutates `value`.
 * @example serialize({ big: 10n, when: new Date(0) }) // { big: '10n', when: '1970-01-01T00:00:00.000Z' }
 */
export function serialize(value: unknown, options?: SerializeOptions): unknown {
  return serializeWith(value, options === undefined ? DEFAULT_SERIALIZE_CONFIG : serializeConfig(options));
}

/**
 * {@link serialize} with a prepared config (the hot path: no option merging per call). Values serialized
 * with the same `walk` (from {@link newWalk}) share one `maxTotalSize` budget, e.g. all inputs of a call.
 */
export function serializeWith(value: unknown, config: SerializeConfig, walk?: Walk): unknown {
  if (config.limits.maxTotalSize > 0) {
    // Leaves that come out as they went in need no walk (the common inputs and outputs of small functions).
    if (typeof value === 'number' && Number.isFinite(value)) return value + 0; // -0 becomes 0
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && value.length <= config.limits.maxStringLength) {
      // a string that may be media (a data URL starts with `d`; bare base64 is long) is looked at, with no walk
      if (config.media === undefined || (value.length < MIN_BASE64_MEDIA_CHARS && value.charCodeAt(0) !== 100)) return value;
      return mediaOfText(value, config.media, config.limits.maxStringLength) ?? value;
    }
  }
  try {
    return toJsonSafe(walk ?? new Walk(config), value, 0);
  } catch (err) {
    return `[Unserializable: ${safeMessage(err)}]`;
  }
}

/**
 * State of one serialization: the objects on the current path (cycle check) and the size left. The path
 * is a stack no deeper than `maxDepth`, so a linear scan beats a WeakSet and costs nothing to set up.
 */
export class Walk {
  readonly path: object[] = [];
  readonly limits: Readonly<SerializeLimits>;
  readonly redactor: KeyRedactor | undefined;
  readonly media: MediaSink | undefined;
  budget: number;
  constructor(config: SerializeConfig) {
    this.limits = config.limits;
    this.redactor = config.redactor;
    this.media = config.media;
    this.budget = config.limits.maxTotalSize;
  }
}

/** A fresh serialization state whose size budget several {@link serializeWith} calls can share. */
export function newWalk(config: SerializeConfig): Walk {
  return new Walk(config);
}

function toJsonSafe(w: Walk, value: unknown, depth: number): unknown {
  if (w.budget <= 0) return spend(w, SIZE_LIMIT_MARK);
  switch (typeof value) {
    case 'string':
      if (w.media !== undefined && (value.charCodeAt(0) === 100 || value.length >= MIN_BASE64_MEDIA_CHARS)) {
        const media = mediaOfText(value, w.media, w.limits.maxStringLength);
        if (media) return spendMedia(w, media);
      }
      return spend(w, cutString(value, w.limits.maxStringLength));
    case 'boolean':
      w.budget -= 5;
      return value;
    case 'number':
      w.budget -= 24;
      return Number.isFinite(value) ? value + 0 : String(value);
    case 'bigint':
      return spend(w, cutString(`${value.toString()}n`, w.limits.maxStringLength));
    case 'undefined':
      w.budget -= 4;
      return null;
    case 'symbol':
      return spend(w, cutString(value.toString(), w.limits.maxStringLength));
    case 'function':
      return spend(w, cutString(`[Function ${functionName(value)}]`, w.limits.maxStringLength));
  }
  if (value === null) {
    w.budget -= 4;
    return null;
  }
  const obj = value as object;
  if (w.path.includes(obj)) return spend(w, '[Circular]');
  if (depth >= w.limits.maxDepth) return spend(w, '[MaxDepth]');
  w.path.push(obj);
  w.budget -= 2;
  try {
    return objectToJsonSafe(w, obj, depth + 1);
  } catch (err) {
    return spend(w, cutString(`[Unreadable: ${safeMessage(err)}]`, w.limits.maxStringLength));
  } finally {
    w.path.pop();
  }
}

function objectToJsonSafe(w: Walk, obj: object, depth: number): unknown {
  if (Array.isArray(obj)) return listToJson(w, obj, depth);
  const proto: unknown = Object.getPrototypeOf(obj);
  if (proto === Object.prototype || proto === null) return plainToJson(w, obj, depth, undefined); // the common case first
  if (obj instanceof Date) return spend(w, Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString());
  if (obj instanceof Error) return errorToJson(w, obj, depth);
  if (obj instanceof Map) return { __type: 'Map', entries: mapEntriesToJson(w, obj, depth) };
  if (obj instanceof Set) return { __type: 'Set', values: listToJson(w, obj, depth) };
  if (obj instanceof MediaValue) return spendMedia(w, obj.placed(w.media));
  if (w.media !== undefined) {
    if (obj instanceof Uint8Array) return spendMedia(w, mediaOfBytes(obj, undefined, w.media, w.media.maxFileBytes));
    if (obj instanceof ArrayBuffer) return spendMedia(w, mediaOfBytes(new Uint8Array(obj), undefined, w.media, w.media.maxFileBytes));
    if (typeof Blob === 'function' && obj instanceof Blob) return spendMedia(w, mediaOfBlob(obj, undefined, w.media));
  }
  if (ArrayBuffer.isView(obj)) return binaryToJson(w, obj);
  if (obj instanceof ArrayBuffer) return binaryToJson(w, new Uint8Array(obj));
  if (obj instanceof RegExp) return spend(w, cutString(obj.toString(), w.limits.maxStringLength));
  return plainToJson(w, obj, depth, classNameOf(obj));
}

/** An object without special handling: its `toJSON()`, else its fields (after `__class` for class instances). */
function plainToJson(w: Walk, obj: object, depth: number, className: string | undefined): unknown {
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return toJsonSafe(w, toJSON.call(obj), depth);
  const out: Record<string, unknown> = {};
  if (className) out.__class = spend(w, className);
  return fieldsToJson(w, obj, out, depth, undefined);
}

/** Copies the own enumerable fields of `obj` into `out` (redacting, capping, marking getters that throw). */
function fieldsToJson(w: Walk, obj: object, out: Record<string, unknown>, depth: number, skip: Set<string> | undefined) {
  const keys = Object.keys(obj);
  const n = Math.min(keys.length, w.limits.maxItems);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as string;
    if (skip?.has(k)) continue;
    if (w.budget <= 0) {
      out[TRUNCATED_KEYS_KEY] = spend(w, SIZE_LIMIT_MARK);
      return out;
    }
    const key = cutString(k, w.limits.maxStringLength);
    w.budget -= key.length + 4;
    if (w.redactor?.matches(k)) {
      setKey(out, key, spend(w, REDACTED));
      continue;
    }
    let v: unknown;
    try {
      v = (obj as Record<string, unknown>)[k];
    } catch (err) {
      setKey(out, key, spend(w, cutString(`[Threw: ${safeMessage(err)}]`, w.limits.maxStringLength)));
      continue;
    }
    setKey(out, key, toJsonSafe(w, v, depth));
  }
  if (keys.length > n) out[TRUNCATED_KEYS_KEY] = spend(w, truncatedMark(keys.length - n, 'keys'));
  return out;
}

function listToJson(w: Walk, items: readonly unknown[] | Set<unknown>, depth: number): unknown[] {
  const out: unknown[] = [];
  const total = Array.isArray(items) ? items.length : (items as Set<unknown>).size;
  const n = Math.min(total, w.limits.maxItems);
  const iter = Array.isArray(items) ? undefined : (items as Set<unknown>).values();
  for (let i = 0; i < n; i++) {
    if (w.budget <= 0) {
      out.push(spend(w, SIZE_LIMIT_MARK));
      return out;
    }
    w.budget -= 1;
    out.push(toJsonSafe(w, iter ? iter.next().value : (items as readonly unknown[])[i], depth));
  }
  if (total > n) out.push(spend(w, truncatedMark(total - n, 'items')));
  return out;
}

function mapEntriesToJson(w: Walk, map: Map<unknown, unknown>, depth: number): unknown[] {
  const out: unknown[] = [];
  for (const [k, v] of map) {
    if (out.length >= w.limits.maxItems) {
      out.push(spend(w, truncatedMark(map.size - out.length, 'items')));
      break;
    }
    if (w.budget <= 0) {
      out.push(spend(w, SIZE_LIMIT_MARK));
      break;
    }
    const secret = typeof k === 'string' && w.redactor?.matches(k);
    out.push([toJsonSafe(w, k, depth), secret ? spend(w, REDACTED) : toJsonSafe(w, v, depth)]);
  }
  return out;
}

const ERROR_FIELDS = new Set(['name', 'message', 'stack']);

function errorToJson(w: Walk, err: Error, depth: number): Record<string, unknown> {
  const max = w.limits.maxStringLength;
  const out: Record<string, unknown> = {
    name: spend(w, cutString(String(err.name), max)),
    message: spend(w, cutString(String(err.message), max)),
  };
  if (typeof err.stack === 'string') out.stack = spend(w, cutString(err.stack, max));
  if (err.cause !== undefined) out.cause = toJsonSafe(w, err.cause, depth);
  return fieldsToJson(w, err, out, depth, ERROR_FIELDS);
}

function binaryToJson(w: Walk, view: ArrayBufferView): Record<string, unknown> {
  const kept = Math.min(view.byteLength, w.limits.maxBinaryBytes, Math.max(0, Math.floor((w.budget * 3) / 4)));
  const base64 = base64Of(new Uint8Array(view.buffer, view.byteOffset, kept));
  const out: Record<string, unknown> = {
    __type: spend(w, classNameOf(view) ?? 'ArrayBufferView'),
    byteLength: view.byteLength,
    base64: spend(w, base64),
  };
  w.budget -= 40;
  if (kept < view.byteLength) Object.assign(out, truncatedValue(view.byteLength, kept));
  return out;
}

/** Counts a media reference against the size budget (about the size of its JSON) and returns it. */
function spendMedia(w: Walk, media: MediaValue): MediaValue {
  w.budget -= 160;
  return media;
}

/** The class name of an instance whose prototype is not `Object.prototype` or `null`. */
function classNameOf(obj: object): string | undefined {
  const proto = Object.getPrototypeOf(obj) as { constructor?: { name?: unknown } } | null;
  if (!proto || proto === Object.prototype) return undefined;
  const name = proto.constructor?.name;
  return typeof name === 'string' && name !== '' ? name.slice(0, 200) : undefined;
}

function functionName(fn: Function): string {
  try {
    return typeof fn.name === 'string' && fn.name !== '' ? fn.name : 'anonymous';
  } catch {
    return 'anonymous';
  }
}

/** `out[k] = v` that makes an own property even for the key `__proto__`. */
function setKey(out: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/** Counts a string against the size budget and returns it. */
function spend(w: Walk, s: string): string {
  w.budget -= s.length + 3;
  return s;
}

