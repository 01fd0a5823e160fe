/**
 * The small SQL dialect helper the stores share: SQL written once with `?` placeholders serves SQLite as is and
 * PostgreSQL through {@link pgPlaceholders}; a list is bound as one parameter (SQLite: JSON text read by `json_each`;
 * PostgreSQL: a `text[]`); a 0/1 flag column reads as a condition; "no limit" is each engine's own value; a JSON value
 * is bound as its text; a parameter PostgreSQL cannot type from its use carries a cast there.
 * @module
 */
import { pgJsonText, pgJsonTextOf } from './pg-json.js';
import { sqlCache } from './statement-cache.js';

/**
 * SQL text with `?` placeholders as PostgreSQL's `$1, $2, ...`, in order. For SQL written for both engines, which
 * holds no `?` inside a string literal.
 */
function pgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** What SQL written once with `?` placeholders needs to know of an engine. */
export interface Dialect {
  /** Which engine: a store picks its few engine-specific SQL leaves by it. */
  readonly engine: 'sqlite' | 'postgres';
  /** `expr` is one of the values of a list bound as ONE `?` parameter, the value {@link Dialect.list} binds. */
  inList(expr: string): string;
  /** The parameter value of a list of text. */
  list(values: readonly string[]): unknown;
  /** A subquery of the values of a list bound as ONE `?` parameter (see {@link Dialect.list}), one row each, column `value`. */
  listRows(): string;
  /** A 0/1 integer column as a condition. */
  isSet(column: string): string;
  /** The `LIMIT` parameter meaning "every row". */
  readonly noLimit: number | null;
  /** The parameter value of a JSON value: its JSON text (on PostgreSQL, as its `json` type accepts it: `pgJsonText`). */
  json(value: unknown): string;
  /** The parameter value of a value's `JSON.stringify` text (on PostgreSQL, as `pgJsonTextOf` makes it acceptable). */
  jsonText(text: string): string;
  /** `expr` (a `?` placeholder) with a PostgreSQL type cast (`?::text`); SQLite takes it as is. */
  typed(expr: string, pgType: string): string;
}

/** SQLite: `?` as is, lists as JSON text. */
export const SQLITE_DIALECT: Dialect = {
  engine: 'sqlite',
  inList: (expr) => `${expr} IN (SELECT value FROM json_each(?))`,
  list: (values) => JSON.stringify(values),
  listRows: () => 'SELECT value FROM json_each(?)',
  isSet: (column) => column,
  noLimit: -1,
  json: (value) => JSON.stringify(value),
  jsonText: (text) => text,
  typed: (expr) => expr,
};

/** PostgreSQL's SQL of a text written with `?` placeholders (each text converted once, {@link sqlCache}). */
export const pgSql = sqlCache(pgPlaceholders);

/** PostgreSQL: `$n` placeholders ({@link pgSql}, applied by the runner), lists as `text[]`. */
export const PG_DIALECT: Dialect = {
  engine: 'postgres',
  inList: (expr) => `${expr} = ANY(?::text[])`,
  list: (values) => [...values],
  listRows: () => 'SELECT value COLLATE "C" AS value FROM unnest(?::text[]) AS value',
  isSet: (column) => `${column} = 1`,
  noLimit: null,
  json: pgJsonText,
  jsonText: pgJsonTextOf,
  typed: (expr, pgType) => `${expr}::${pgType}`,
};
