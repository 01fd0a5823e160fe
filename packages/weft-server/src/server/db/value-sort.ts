/**
 * ORDER BY keys of a JSON value, as Weave's trace server sorts a dynamic field (exists, then as a double, then as a
 * string): present values first, then numbers (numeric text included, booleans as 1/0) by value, then the rest by
 * text in code point order (objects and arrays as their JSON text); nulls and missing values last in both directions.
 * One builder per engine; `/calls/stream_query` (a call's JSON fields) and `/table/query` (paths into a row) sort with them.
 * @module
 */

const direction = (desc: boolean): string => (desc ? 'DESC' : 'ASC');

/**
 * The SQLite keys (the `weft_numq` function of sql-functions.ts).
 *
 * @param read - SQL reading the value; called once per key, in key order, so a path bound as a parameter is bound again
 *   for each placeholder.
 * @param desc - descending (numbers and text flip; nulls stay last).
 */
export function sqliteValueSortKeys(read: () => string, desc: boolean): string[] {
  const dir = direction(desc);
  return [`${read()} IS NULL`, `weft_numq(${read()}) ${dir} NULLS LAST`, `CAST(${read()} AS TEXT) ${dir}`];
}

/**
 * The PostgreSQL keys of a jsonb value (the `weft_*` functions of pg-sql-functions.ts), sorting as the SQLite ones.
 *
 * @param value - SQL of the value as jsonb (JSON null and SQL NULL both count as null).
 * @param desc - descending.
 */
export function pgValueSortKeys(value: string, desc: boolean): string[] {
  const dir = direction(desc);
  return [`(weft_rank(${value}) = 0) ASC`, `weft_numq(${value}) ${dir} NULLS LAST`, `weft_text(${value}) COLLATE "C" ${dir}`];
}
