/**
 * The small SQL dialect helper the stores share: SQL written once with `?` placeholders serves SQLite as is and
 * PostgreSQL through {@link pgPlaceholders}; a list is bound as one parameter (SQLite: JSON text read by `json_each`;
 * PostgreSQL: a `text[]`).
 * @module
 */

/**
 * SQL text with `?` placeholders as PostgreSQL's `$1, $2, ...`, in order. For SQL written for both engines, which
 * holds no `?` inside a string literal.
 */
export function pgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** `expr` is one of the values of a list bound as one parameter `param` (a placeholder), on each engine. */
export const IN_LIST = {
  sqlite: (expr: string, param = '?'): string => `${expr} IN (SELECT value FROM json_each(${param}))`,
  postgres: (expr: string, param: string): string => `${expr} = ANY(${param}::text[])`,
} as const;
