/**
 * Bounded caches keyed by SQL text: prepared statements per SQLite connection, so a store re-running the same SQL does
 * not re-prepare it, and SQL text converted for PostgreSQL (dialect.ts), so a step's `?` are not rewritten each run.
 * @module
 */
import type Database from 'better-sqlite3';

/** Returns a cached prepared statement for a SQL text. */
export type Prepare = (sql: string) => Database.Statement;

/** Entries kept per cache; past this many distinct SQL texts the cache starts over. */
const CACHE_SIZE = 256;

/** `make` remembered per SQL text, for up to {@link CACHE_SIZE} texts at a time. */
export function sqlCache<T>(make: (sql: string) => T): (sql: string) => T {
  const made = new Map<string, T>();
  return (sql) => {
    let value = made.get(sql);
    if (value === undefined) {
      if (made.size >= CACHE_SIZE) made.clear();
      value = make(sql);
      made.set(sql, value);
    }
    return value;
  };
}

/**
 * Builds a statement cache over a connection. Statements handed out stay valid after the cache starts
 * over; do not change their mode (`raw`, `pluck`), as later users of the same SQL text share them.
 *
 * @param db - the connection to prepare on.
 * @returns `prepare`: the cached statement of a SQL text, prepared on first use.
 */
export function statementCache(db: Database.Database): Prepare {
  return sqlCache((sql) => db.prepare(sql));
}
