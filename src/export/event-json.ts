/**
 * JSON text of call events without `JSON.stringify`'s fixed cost per value: the same text for the values op() makes.
 * @module
 */
import { utf8Length } from '../internal/runtime.js';

import { flat } from './entry-chunks.js';

/**
 * Strings that JSON writes as they are between quotes: printable ASCII without `"` and `\`. Such a
 * string's UTF-8 length is its length.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Strings up to this length are tested against {@link PLAIN}; longer ones go to `JSON.stringify`. */
const PLAIN_TEST_MAX = 256;

/** Nesting below which plain objects and arrays are written here; deeper parts go to `JSON.stringify`. */
const MAX_DEPTH = 4;

/** Texts kept per process (bounded): `"key":` of object keys, and strings that repeat (project ids, op names); plain ASCII ones only. */
const KEY_TEXT = new Map<string, string>();
const REPEATED = new Map<string, string>();
const KEPT_MAX = 4096;

/** Frozen values (the shared empty attributes, the leaf summaries) and their JSON, by identity: they cannot change. */
const FROZEN = new WeakMap<object, string>();

/**
 * Writes JSON like `JSON.stringify` (the same text for every value; plain objects, arrays, strings,
 * finite numbers, booleans and null are written here, other values by `JSON.stringify` itself), and
 * tracks whether everything written was ASCII, so the UTF-8 length is known without counting it.
 */
class TextWriter {
  /** Every character written so far is ASCII (then its UTF-8 length is its length). */
  ascii = true;

  /** `"key":` of an object key (kept, bounded). */
  key(k: string): string {
    let text = KEY_TEXT.get(k);
    if (text !== undefined) return text;
    if (!isPlain(k)) return `${this.escaped(k)}:`;
    text = `"${k}":`;
    if (KEY_TEXT.size < KEPT_MAX) KEY_TEXT.set(k, text);
    return text;
  }

  /** A string expected to repeat (project id, op name): its JSON is kept (bounded). */
  repeated(s: string): string {
    let text = REPEATED.get(s);
    if (text !== undefined) return text;
    if (!isPlain(s)) return this.escaped(s);
    text = `"${s}"`;
    if (REPEATED.size < KEPT_MAX) REPEATED.set(s, text);
    return text;
  }

  string(s: string): string {
    return isPlain(s) ? `"${s}"` : this.escaped(s);
  }

  /** A string that is not plain ASCII: written by `JSON.stringify` (escapes, lone surrogates), maybe not ASCII. */
  private escaped(s: string): string {
    this.ascii = false;
    return JSON.stringify(s);
  }

  /**
   * A value that `JSON.stringify` writes (not undefined, a function or a symbol: see {@link skipped}).
   * @throws what `JSON.stringify` throws (a cycle, a BigInt).
   */
  value(v: unknown, depth: number): string {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'number':
        return Number.isFinite(v) ? `${v}` : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        return v === null ? 'null' : this.object(v, depth);
      default:
        return this.other(v);
    }
  }

  private object(v: object, depth: number): string {
    const frozen = FROZEN.get(v);
    if (frozen !== undefined) return frozen;
    if (depth >= MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return this.other(v);
    if (Array.isArray(v)) {
      let out = '[';
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        const text = skipped(x) ? 'null' : this.value(x, depth + 1);
        out = i === 0 ? `${out}${text}` : `${out},${text}`;
      }
      return `${out}]`;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return this.other(v);
    let out = '{';
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const x = (v as Record<string, unknown>)[k];
      if (skipped(x)) continue;
      out = out.length === 1 ? `{${this.key(k)}${this.value(x, depth + 1)}` : `${out},${this.key(k)}${this.value(x, depth + 1)}`;
    }
    out = `${out}}`;
    if (depth === 0 && isDeepFrozen(v)) FROZEN.set(v, flat(out));
    return out;
  }

  private other(v: unknown): string {
    this.ascii = false;
    return JSON.stringify(v) ?? 'null';
  }
}

/** Whether `s` is written as it is between quotes, all ASCII (only short strings are tested). */
function isPlain(s: string): boolean {
  return s.length <= PLAIN_TEST_MAX && PLAIN.test(s);
}

/** Values an object key is left out for (and an array writes as `null`). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** True when `v` and everything in it is frozen (so its JSON can be kept by identity). */
function isDeepFrozen(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  for (const x of Object.values(v)) if (x !== null && typeof x === 'object' && !isDeepFrozen(x)) return false;
  return true;
}

/**
 * The JSON text of an upsert_batch item `{"mode": mode, "req": {[mode]: event}}`, the same as
 * `JSON.stringify` of it, and its UTF-8 length. The text is a concatenation (a tree of pieces): the
 * exporter copies it into a shared buffer at once (`entry-chunks.ts`), which reads the tree without
 * flattening it; a caller that keeps the string should flatten it (see `flat()` there).
 * @throws what `JSON.stringify` throws on a value in the event (a cycle, a BigInt).
 */
export function eventItemJson(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const w = new TextWriter();
  let body = '';
  for (const k in event) {
    if (!Object.hasOwn(event, k)) continue;
    const v = (event as Record<string, unknown>)[k];
    if (skipped(v)) continue;
    const text = (k === 'project_id' || k === 'op_name') && typeof v === 'string' ? w.repeated(v) : w.value(v, 0);
    body = body === '' ? `${w.key(k)}${text}` : `${body},${w.key(k)}${text}`;
  }
  const json = mode === 'start' ? `{"mode":"start","req":{"start":{${body}}}}` : `{"mode":"end","req":{"end":{${body}}}}`;
  return { json, bytes: w.ascii ? json.length : utf8Length(json) };
}
