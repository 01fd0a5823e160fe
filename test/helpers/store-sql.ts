/**
 * Test helper: reads a server's tables directly with one SQL text on either store (SQLite, or PostgreSQL in the
 * `postgres` vitest project), for checks of what was stored.
 * @module
 */
import type { RunningServer } from '../../src/server/index.js';
import { PgStore } from '../../src/server/pg-store.js';
import { Store } from '../../src/server/store.js';

/**
 * Runs a read-only query on the server's database and returns its rows. JSON columns come back as their text on
 * both stores, integers as numbers.
 *
 * @param sql - SQL both engines accept, with `?` placeholders (turned into `$1`, `$2`, ... on PostgreSQL).
 * @param params - the values, in placeholder order.
 */
export async function storeRows<R>(server: RunningServer, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  const store = server.store;
  if (store instanceof Store) return store.connection.prepare(sql).all(...params) as R[];
  if (store instanceof PgStore) {
    let n = 0;
    return (await store.db.pool.query(sql.replace(/\?/g, () => `$${++n}`), params as unknown[])).rows as R[];
  }
  throw new Error('storeRows: unknown store');
}
