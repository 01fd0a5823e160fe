/**
 * Content digests of table rows and tables: canonical JSON, sha256, base64url with `-`→`X`, `_`→`Y`, no `=`; and the
 * rows of one `/table/create` as both stores write them ({@link tableRows}).
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

/** A table ready to be written: what {@link tableRows} computes once for the stores' bulk inserts. */
export interface TableRows {
  /** The table digest ({@link tableDigest} of `rowDigests`). */
  digest: string;
  /** One digest per row, in order: {@link digestBytes} of the row's {@link canonicalJson}. */
  rowDigests: string[];
  /** One stored JSON text per row, in order (the `val` column). */
  texts: string[];
}

/** Length of a sha256 digest in base64url without padding. */
const DIGEST_CHARS = 43;

/**
 * Computes the digests and stored texts of a table's rows in one pass. A row that is not an object or an array is
 * its own canonical JSON (`JSON.stringify`), so it is serialized once; an object or array is serialized twice
 * (canonical, keys sorted, for the digest; as sent, for storage). The `-`→`X`, `_`→`Y` replacement of the digests runs once over
 * all of them joined, not once per row.
 *
 * @param rows - the rows in order; JSON values (as parsed from a request body).
 * @param storable - the text stored for a row's `JSON.stringify` text. @defaultValue the text itself (the SQLite
 *   store's; PostgreSQL's replaces unpaired surrogate escapes, `pgJsonTextOf`)
 * @returns the table digest, the row digests and the stored texts, each in row order.
 * @see docs/interface-notes.md, "Table digests": the digests weft and the reference service share.
 */
export function tableRows(rows: readonly unknown[], storable?: (json: string) => string): TableRows {
  const n = rows.length;
  const texts = new Array<string>(n);
  const plain = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    const text = JSON.stringify(row);
    texts[i] = storable ? storable(text) : text;
    plain[i] = sha256Base64url(row !== null && typeof row === 'object' ? canonicalJson(row) : text);
  }
  const all = plain.join('').replaceAll('-', 'X').replaceAll('_', 'Y');
  for (let i = 0; i < n; i++) plain[i] = all.slice(i * DIGEST_CHARS, (i + 1) * DIGEST_CHARS);
  return { digest: tableDigest(plain), rowDigests: plain, texts };
}
