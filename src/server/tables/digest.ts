/**
 * Content digests of table rows and tables: canonical JSON, sha256, base64url with `-`→`X`, `_`→`Y`, no `=`.
 * @module
 */
import { hash } from 'node:crypto';

/**
 * The canonical JSON text of a JSON value: object keys sorted by UTF-16 code unit order (JavaScript's
 * default sort) at every depth, no whitespace, strings and numbers as `JSON.stringify` writes them
 * (so `1.0` and `1` are the same value, `1e3` is written `1000`). Two rows that are equal as JSON
 * values have the same canonical text whatever their key order.
 *
 * @param value - a JSON value (as parsed from a request body).
 * @returns its canonical JSON text.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 of bytes (or of a string's UTF-8) as base64url, with `-` replaced by `X`, `_` by `Y`, and no `=` padding (43 characters). */
export function digestBytes(data: Uint8Array | string): string {
  return sha256Base64url(data).replaceAll('-', 'X').replaceAll('_', 'Y');
}

/**
 * sha256 of bytes (or of a string's UTF-8) as plain base64url (43 characters, `-` and `_` not yet replaced): the
 * one-shot `crypto.hash` (Node.js 20.12+), several times cheaper than a `createHash` object for a short text.
 */
export function sha256Base64url(data: Uint8Array | string): string {
  return hash('sha256', data, 'base64url');
}

/**
 * Digest of a table: {@link digestBytes} of the canonical JSON of the array of its row digests, in row order
 * (e.g. `["abc…","def…"]`). Same rows in the same order give the same table digest; the empty table's is the
 * digest of `[]`.
 */
export function tableDigest(rowDigests: readonly string[]): string {
  // the canonical JSON of an array of strings is its JSON.stringify
  return digestBytes(JSON.stringify(rowDigests));
}
