/**
 * Reading client JSON stored in PostgreSQL `json` columns with the JSON operators, whatever it holds.
 * @module
 */

/**
 * A `json` column as its JSON operators can read it: PostgreSQL's JSON operators fail on a document holding a
 * `\u0000` escape anywhere (text cannot hold U+0000), so such a document is read with those escapes as `\u0001`.
 * Types and numbers are unchanged, so stats are too; a string sort key holding U+0000 sorts as if it held U+0001.
 */
export function readableJson(column: string): string {
  return `(CASE WHEN strpos(${column}::text, '\\u0000') > 0 THEN replace(${column}::text, '\\u0000', '\\u0001')::json ELSE ${column} END)`;
}

/** A JSON string escape: a surrogate pair, a lone high or low surrogate, or any other escape (`\\`, `\"`, ...). */
const ESCAPE = /\\(?:u(d[89ab][0-9a-f]{2})(\\ud[c-f][0-9a-f]{2})?|u(d[c-f][0-9a-f]{2})|[^])/g;

/**
 * The JSON text of a value as PostgreSQL's `json` type accepts it: `JSON.stringify`, with an unpaired UTF-16
 * surrogate (which `JSON.stringify` writes as a `\udXXX` escape, and PostgreSQL refuses) written as U+FFFD, the
 * replacement character, as node-postgres and better-sqlite3 already do for such a character in a text parameter.
 * Any other text is unchanged (the SQLite store keeps the escape: the only difference between the stores).
 *
 * @param value - a JSON value (as parsed from a request body).
 */
export function pgJsonText(value: unknown): string {
  return pgJsonTextOf(JSON.stringify(value));
}

/** {@link pgJsonText} of a value's `JSON.stringify` text, already written. */
export function pgJsonTextOf(text: string): string {
  if (!/\\ud[89a-f]/.test(text)) return text;
  return text.replace(ESCAPE, (whole: string, high?: string, low?: string, lone?: string) =>
    (high !== undefined && low === undefined) || lone !== undefined ? '\\ufffd' : whole);
}

/** The SQLSTATE of a PostgreSQL error (node-postgres's `code`), else undefined. */
const sqlState = (err: unknown): unknown => (err instanceof Error ? (err as { code?: unknown }).code : undefined);

/** SQLSTATEs of text PostgreSQL cannot hold: U+0000 in a text value (22021), or converted from a JSON escape (22P05). */
const UNSTORABLE_TEXT = new Set<unknown>(['22021', '22P05']);

/**
 * True for the error PostgreSQL raises on text it cannot store (U+0000): the request is answered 422, since no
 * PostgreSQL text column can hold that character (the SQLite store can).
 */
export const isUnstorableText = (err: unknown): boolean => UNSTORABLE_TEXT.has(sqlState(err));

/** True for PostgreSQL's error of a statement cut by `statement_timeout` or cancelled (57014, query_canceled). */
export const isCanceledStatement = (err: unknown): boolean => sqlState(err) === '57014';
