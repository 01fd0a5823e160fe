/**
 * Positional parameters of a SQL statement being built, for both engines: the call query compilers (calls/) and the
 * feedback stats (feedback/) bind their values through them.
 * @module
 */

/** Positional parameters of a statement being built: `bind` appends a value and answers its placeholder. */
export interface Params {
  readonly values: unknown[];
  bind(value: unknown): string;
}

/** The parameters of a new statement, bound as `?` (SQLite), or as `$1, $2, ...` when `numbered` (PostgreSQL). */
export function newParams(numbered: boolean): Params {
  const values: unknown[] = [];
  return { values, bind: (v) => (values.push(v), numbered ? `$${values.length}` : '?') };
}
