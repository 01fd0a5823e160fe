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

/** Texts kept per process (bounded): `"key":` of object keys, and strings that repeat (project ids, op names). */
const KEY_TEXT = new Map<string, string>();
const REPEATED = new Map<string, string>();
const KEPT_MAX = 4096;

/** Frozen values (the shared empty attributes, the leaf summaries) and their JSON, by identity: they cannot change. */
const FROZEN = new WeakMap<object, string>();

/**
 * Writes JSON like `JSON.stringify` (the same text for every value; plain objects, arrays, strings,
 * finite numbers, booleans and null are written here, other values by `JSON.stringify` itself) as
 * pieces joined once at the end, so no intermediate strings are made. Tracks whether everything
 * written was ASCII, so the UTF-8 length is known without counting it. One writer per thread: not reentrant.
 */
class PieceWriter {
  private readonly parts: string[] = [];
  /** Every character written so far is ASCII (then its UTF-8 length is its length). */
  private ascii = true;

  /** Starts a new text. */
  reset(): void {
    this.parts.length = 0;
    this.ascii = true;
  }

  /** The text written since {@link reset}, flat, and its UTF-8 length. */
  finish(): { json: string; bytes: number } {
    const json = this.parts.join('');
    this.parts.length = 0;
    return { json, bytes: this.ascii ? json.length : Buffer.byteLength(json) };
  }

  raw(text: string): void {
    this.parts.push(text);
  }

  /** `"key":` of an object key (kept, bounded). */
  key(k: string): void {
    let text = KEY_TEXT.get(k);
    if (text === undefined) {
      text = `${this.quoted(k)}:`;
      if (KEY_TEXT.size < KEPT_MAX) KEY_TEXT.set(k, text);
    }
    this.parts.push(text);
  }

  /** A string expected to repeat (project id, op name): its JSON is kept (bounded). */
  repeated(s: string): void {
    let text = REPEATED.get(s);
    if (text === undefined) {
      text = this.quoted(s);
      if (REPEATED.size < KEPT_MAX && s.length <= PLAIN_TEST_MAX) REPEATED.set(s, text);
    } else if (text.length !== s.length + 2) this.ascii = false; // escaped: maybe not ASCII
    this.parts.push(text);
  }

  string(s: string): void {
    if (s.length <= PLAIN_TEST_MAX && PLAIN.test(s)) this.parts.push('"', s, '"');
    else {
      this.ascii = false;
      this.parts.push(JSON.stringify(s));
    }
  }

  private quoted(s: string): string {
    if (s.length <= PLAIN_TEST_MAX && PLAIN.test(s)) return `"${s}"`;
    this.ascii = false;
    return JSON.stringify(s);
  }

  /**
   * Writes a value that `JSON.stringify` writes (not undefined, a function or a symbol: see {@link skipped}).
   * @throws what `JSON.stringify` throws (a cycle, a BigInt).
   */
  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'number':
        return void this.parts.push(Number.isFinite(v) ? `${v}` : 'null');
      case 'boolean':
        return void this.parts.push(v ? 'true' : 'false');
      case 'object':
        if (v === null) return void this.parts.push('null');
        return this.object(v, depth);
      default:
        return this.other(v);
    }
  }

  private object(v: object, depth: number): void {
    const frozen = FROZEN.get(v);
    if (frozen !== undefined) return void this.parts.push(frozen);
    if (depth >= MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return this.other(v);
    const parts = this.parts;
    if (Array.isArray(v)) {
      parts.push('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push(',');
        const x: unknown = v[i];
        if (skipped(x)) parts.push('null');
        else this.value(x, depth + 1);
      }
      return void parts.push(']');
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return this.other(v);
    const from = parts.length;
    parts.push('{');
    let first = true;
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (skipped(x)) continue;
      if (!first) parts.push(',');
      first = false;
      this.key(k);
      this.value(x, depth + 1);
    }
    parts.push('}');
    if (depth === 0 && isDeepFrozen(v)) FROZEN.set(v, parts.slice(from).join(''));
  }

  private other(v: unknown): void {
    this.ascii = false;
    const text = JSON.stringify(v);
    this.parts.push(text === undefined ? 'null' : text);
  }
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

const writer = new PieceWriter();
const OPEN = { start: '{"mode":"start","req":{"start":{', end: '{"mode":"end","req":{"end":{' } as const;

/**
 * The JSON text of an upsert_batch item `{"mode": mode, "req": {[mode]: event}}`, the same as
 * `JSON.stringify` of it, as one flat string, and its UTF-8 length.
 * @throws what `JSON.stringify` throws on a value in the event (a cycle, a BigInt).
 */
export function eventItemJson(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const w = writer;
  w.reset();
  try {
    w.raw(OPEN[mode]);
    let first = true;
    for (const k of Object.keys(event)) {
      const v = (event as Record<string, unknown>)[k];
      if (skipped(v)) continue;
      if (!first) w.raw(',');
      first = false;
      w.key(k);
      if ((k === 'project_id' || k === 'op_name') && typeof v === 'string') w.repeated(v);
      else w.value(v, 0);
    }
    w.raw('}}}');
    return w.finish();
  } finally {
    w.reset();
  }
}
