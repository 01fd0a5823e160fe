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
