/**
 * A bounded cache of prepared statements per connection, so a store re-running the same SQL does not re-prepare it.
 * @module
 */
import type Database from 'better-sqlite3';

/** Returns a cached prepared statement for a SQL text. */
export type Prepare = (sql: string) => Database.Statement;

/** Prepared statements kept per cache; past this many distinct SQL texts the cache starts over. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Builds a statement cache over a connection. Statements handed out stay valid after the cache starts
 * over; do not change their mode (`raw`, `pluck`), as later users of the same SQL text share them.
 *
 * @param db - the connection to prepare on.
 * @returns `prepare`: the cached statement of a SQL text, prepared on first use.
 */
export function statementCache(db: Database.Database): Prepare {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      stmt = db.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  };
}
