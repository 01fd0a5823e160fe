/**
 * Turns any JS value into a JSON-safe value without throwing and without mutating it (cycles, limits, odd types).
 * @module
 */
import { safeMessage } from '../internal/safe-message.js';

/** Limits of {@link serialize}. */
export interface SerializeLimits {
  /** Nesting depth kept; deeper values become `"[MaxDepth]"`. @defaultValue 12 */
  maxDepth: number;
  /** Characters kept per string; longer strings are cut and marked `…[truncated N chars]`. @defaultValue 10000 */
  maxStringLength: number;
  /** Keys kept per object and items per array; the rest are marked. @defaultValue 1000 */
  maxItems: number;
  /** Bytes of binary data kept (as base64) per typed array or Buffer. @defaultValue 1024 */
  maxBinaryBytes: number;
}

export const DEFAULT_LIMITS: SerializeLimits = { maxDepth: 12, maxStringLength: 10_000, maxItems: 1000, maxBinaryBytes: 1024 };

/** Converts `value` to something `JSON.stringify` accepts; never throws. */
export function serialize(value: unknown, limits: SerializeLimits = DEFAULT_LIMITS): unknown {
  try {
    return toJsonSafe(value, limits, 0, new WeakSet());
  } catch (err) {
    return `[Unserializable: ${safeMessage(err)}]`;
  }
}

function toJsonSafe(value: unknown, limits: SerializeLimits, depth: number, seen: WeakSet<object>): unknown {
  switch (typeof value) {
    case 'string':
      return truncate(value, limits.maxStringLength);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return `${value.toString()}n`;
    case 'undefined':
      return null;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return null;
  const obj = value as object;
  if (seen.has(obj)) return '[Circular]';
  if (depth >= limits.maxDepth) return '[MaxDepth]';
  seen.add(obj);
  try {
    return objectToJsonSafe(obj, limits, depth + 1, seen);
  } finally {
    seen.delete(obj);
  }
}

function objectToJsonSafe(obj: object, limits: SerializeLimits, depth: number, seen: WeakSet<object>): unknown {
  const rec = (v: unknown) => toJsonSafe(v, limits, depth, seen);
  if (Array.isArray(obj)) return capList(obj, limits.maxItems, rec);
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof Error) return errorToJson(obj, limits);
  if (obj instanceof Map) return { __type: 'Map', entries: capList([...obj.entries()], limits.maxItems, rec) };
  if (obj instanceof Set) return { __type: 'Set', values: capList([...obj.values()], limits.maxItems, rec) };
  if (ArrayBuffer.isView(obj)) return binaryToJson(obj, limits);
  if (obj instanceof ArrayBuffer) return binaryToJson(new Uint8Array(obj), limits);
  if (obj instanceof RegExp) return obj.toString();
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') return rec((obj as { toJSON(): unknown }).toJSON());
  return plainToJson(obj, limits, rec);
}

function plainToJson(obj: object, limits: SerializeLimits, rec: (v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const proto = Object.getPrototypeOf(obj) as { constructor?: { name?: string } } | null;
  const className = proto && proto !== Object.prototype ? proto.constructor?.name : undefined;
  if (className) out.__class = className;
  const keys = Object.keys(obj);
  const n = Math.min(keys.length, limits.maxItems);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as string;
    try {
      out[k] = rec((obj as Record<string, unknown>)[k]);
    } catch (err) {
      out[k] = `[Threw: ${safeMessage(err)}]`;
    }
  }
  if (keys.length > n) out['…'] = `[truncated ${keys.length - n} keys]`;
  return out;
}

function capList<T>(items: readonly T[], max: number, rec: (v: T) => unknown): unknown[] {
  const n = Math.min(items.length, max);
  const out: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = rec(items[i] as T);
  if (items.length > n) out.push(`[truncated ${items.length - n} items]`);
  return out;
}

function errorToJson(err: Error, limits: SerializeLimits): Record<string, unknown> {
  return {
    name: truncate(String(err.name), limits.maxStringLength),
    message: truncate(String(err.message), limits.maxStringLength),
    stack: typeof err.stack === 'string' ? truncate(err.stack, limits.maxStringLength) : undefined,
  };
}

function binaryToJson(view: ArrayBufferView, limits: SerializeLimits): Record<string, unknown> {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const kept = bytes.subarray(0, limits.maxBinaryBytes);
  const out: Record<string, unknown> = {
    __type: view.constructor.name,
    byteLength: view.byteLength,
    base64: Buffer.from(kept).toString('base64'),
  };
  if (kept.length < bytes.length) out.truncated = true;
  return out;
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…[truncated ${s.length - max} chars]`;
}

