/**
 * JSON text of call events without `JSON.stringify`'s fixed cost per value: the same text for the values op() makes.
 * @module
 */

/**
 * Strings that JSON writes as they are between quotes: printable ASCII without `"` and `\`. Such a
 * string's UTF-8 length is its length.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Strings up to this length are tested against {@link PLAIN}; longer ones go to `JSON.stringify`. */
const PLAIN_TEST_MAX = 256;

/** Nesting below which plain objects and arrays are written here; deeper parts go to `JSON.stringify`. */
const MAX_DEPTH = 4;

/** Keys written once per process: `"key":` of every field of a start or end event. */
const KEY_TEXT = new Map<string, string>();

/** Frozen values (the shared empty attributes, the leaf summaries) and their JSON, by identity: they cannot change. */
const FROZEN = new WeakMap<object, string>();

/** Texts of short strings that repeat (project ids, op names), bounded. */
const REPEATED = new Map<string, string>();
const REPEATED_MAX = 4096;

/**
 * Writes JSON like `JSON.stringify` (same text for JSON-safe values: plain objects, arrays, strings,
 * finite numbers, booleans, null; other values are written by `JSON.stringify` itself). Tracks
 * whether everything written was plain ASCII, so the UTF-8 length is known without counting it.
 */
export class EventWriter {
  /** Every character written so far is ASCII (then its UTF-8 length is its length). */
  ascii = true;

  /** `"key":` of an object key. */
  key(k: string): string {
    let text = KEY_TEXT.get(k);
    if (text === undefined) {
      text = `${this.string(k)}:`;
      if (KEY_TEXT.size < REPEATED_MAX) KEY_TEXT.set(k, text);
    }
    return text;
  }

  /** A string expected to repeat (project id, op name): its JSON is kept (bounded). */
  repeated(s: string): string {
    let text = REPEATED.get(s);
    if (text === undefined) {
      text = this.string(s);
      if (REPEATED.size < REPEATED_MAX && s.length <= PLAIN_TEST_MAX) REPEATED.set(s, text);
      return text;
    }
    if (text.length !== s.length + 2) this.ascii = false; // escaped, maybe non-ASCII
    return text;
  }

  /** A string's JSON. */
  string(s: string): string {
    if (s.length <= PLAIN_TEST_MAX && PLAIN.test(s)) return `"${s}"`;
    this.ascii = false;
    return JSON.stringify(s);
  }

  /**
   * Any value's JSON, or `undefined` where `JSON.stringify` gives none (undefined, a function, a symbol).
   * @throws what `JSON.stringify` throws (a cycle, a BigInt).
   */
  value(v: unknown, depth = 0): string | undefined {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'number':
        return Number.isFinite(v) ? `${v}` : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        if (v === null) return 'null';
        return this.object(v, depth);
      default:
        return this.other(v);
    }
  }

  private object(v: object, depth: number): string | undefined {
    const frozen = FROZEN.get(v);
    if (frozen !== undefined) return frozen;
    if (depth >= MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return this.other(v);
    if (Array.isArray(v)) {
      let out = '[';
      for (let i = 0; i < v.length; i++) out += `${i === 0 ? '' : ','}${this.value(v[i], depth + 1) ?? 'null'}`;
      return `${out}]`;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return this.other(v);
    let out = '{';
    let first = true;
    for (const k of Object.keys(v)) {
      const text = this.value((v as Record<string, unknown>)[k], depth + 1);
      if (text === undefined) continue;
      out += first ? `${this.key(k)}${text}` : `,${this.key(k)}${text}`;
      first = false;
    }
    out += '}';
    if (depth === 0 && Object.isFrozen(v) && isDeepFrozen(v)) FROZEN.set(v, out);
    return out;
  }

  private other(v: unknown): string | undefined {
    this.ascii = false;
    return JSON.stringify(v);
  }
}

/** True when `v` and everything in it is frozen (so its JSON can be kept by identity). */
function isDeepFrozen(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  for (const x of Object.values(v)) if (x !== null && typeof x === 'object' && !isDeepFrozen(x)) return false;
  return true;
}

/**
 * The JSON text of an upsert_batch item `{"mode": mode, "req": {[mode]: event}}`, the same as
 * `JSON.stringify` of it, and its UTF-8 length.
 * @throws what `JSON.stringify` throws on a value in the event (a cycle, a BigInt).
 */
export function eventItemJson(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const w = new EventWriter();
  let body = '';
  for (const k of Object.keys(event)) {
    const v = (event as Record<string, unknown>)[k];
    const text = k === 'project_id' || k === 'op_name' ? (typeof v === 'string' ? w.repeated(v) : w.value(v)) : w.value(v);
    if (text === undefined) continue;
    body += body === '' ? `${w.key(k)}${text}` : `,${w.key(k)}${text}`;
  }
  const json = mode === 'start' ? `{"mode":"start","req":{"start":{${body}}}}` : `{"mode":"end","req":{"end":{${body}}}}`;
  flatten(json);
  return { json, bytes: w.ascii ? json.length : Buffer.byteLength(json) };
}

/**
 * Makes V8 copy a string built by concatenation (a tree of pieces) into one flat string, now: an event's
 * text is kept until its batch is delivered, and a kept tree costs the garbage collector one object per
 * piece (3x the CPU of the flat text on this path, measured). Reading a character flattens it.
 */
function flatten(s: string): void {
  flattened ^= s.charCodeAt(0); // kept in a variable, so the read is not optimized away
}

let flattened = 0;
