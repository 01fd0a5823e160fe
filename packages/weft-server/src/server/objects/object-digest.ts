/**
 * Digests of Weave objects as the Weave trace server computes them: sha256 of Python `json.dumps(val, sort_keys=True)` text (a file's digest is `digestBytes` of its bytes, file-store.ts).
 * @module
 */
import { digestBytes } from '../tables/digest.js';

/** A UTF-16 code unit outside printable ASCII, which Python's `ensure_ascii` writes as `\uXXXX`. */
const NON_ASCII = /[\u007f-\uffff]/g;

/** A JSON string as Python's `json.dumps` writes it (`ensure_ascii=True`): non-ASCII as `\uXXXX`, surrogate pairs as two escapes. */
function pyString(s: string): string {
  return JSON.stringify(s).replace(NON_ASCII, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A number as Python writes it: integers as digits; other numbers as JavaScript does, with a two-digit
 * exponent (`1e-07`, Python's `repr`). A JSON `1.0` reaches the server as the number 1, so it is written `1`
 * (Python would write `1.0`): the only known difference.
 */
function pyNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/**
 * The text of Python's `json.dumps(value, sort_keys=True)`: `", "` and `": "` separators, keys sorted, non-ASCII
 * escaped. The Weave server hashes this text for object digests.
 *
 * @param value - a JSON value (as parsed from a request body).
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pyString(value);
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${pyString(k)}: ${pythonJsonDumps(obj[k])}`).join(', ')}}`;
}

/**
 * Digest of an object version's value, as the Weave server computes it: sha256 of {@link pythonJsonDumps},
 * base64url with `-`→`X`, `_`→`Y`, no `=` (43 characters). Same value (whatever its key order), same digest.
 */
export function objectDigest(val: unknown): string {
  return digestBytes(pythonJsonDumps(val));
}
