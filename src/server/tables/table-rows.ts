/**
 * The rows of one `/table/create` as both stores write them: each row's stored JSON text, each row's digest and the
 * table digest, computed in one pass over the rows.
 * @module
 */
import { canonicalJson, sha256Base64url, tableDigest } from './digest.js';

/** A table ready to be written: what {@link tableRows} computes once for the stores' bulk inserts. */
export interface TableRows {
  /** The table digest ({@link tableDigest} of `rowDigests`). */
  digest: string;
  /** One digest per row, in order: `digestBytes` of the row's `canonicalJson` (digest.ts). */
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
