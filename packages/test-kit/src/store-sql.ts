/**
 * Test helper: reads a server's tables directly with one SQL text on either store (SQLite, or PostgreSQL in the
 * `postgres` vitest project), for checks of what was stored.
 * @module
 */
import type { RunningServer } from 'weft-server';
import { storeParts } from 'weft-server/src/server/server-store.js';

/**
 * Runs a read-only query on the server's database and returns its rows. JSON columns come back as their text on
 * both stores, integers as numbers.
 *
 * @param sql - SQL both engines accept, with `?` placeholders (turned into `$1`, `$2`, ... on PostgreSQL).
 * @param params - the values, in placeholder order.
 */
export async function storeRows<R>(server: RunningServer, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  const { sqlite, pg } = storeParts(server.store);
  if (sqlite) return sqlite.prepare(sql).all(...params) as R[];
  if (pg) {
    let n = 0;
    return (await pg.pool.query(sql.replace(/\?/g, () => `$${++n}`), params as unknown[])).rows as R[];
  }
  throw new Error('storeRows: unknown store');
}
