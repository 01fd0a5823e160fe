/**
 * A stream-query cursor on PostgreSQL: a server-side cursor (`DECLARE ... CURSOR`) in a read-only REPEATABLE READ
 * transaction on its own connection, so a stream reads one consistent snapshot page by page (as the SQLite
 * store's snapshot cursor does) and never blocks writers.
 * @module
 */
import type pg from 'pg';
import type { CallCursorApi } from './call-store-api.js';
import type { PgCompiledQuery } from './pg-query-sql.js';
import { type CallRow, rowToRecord, type StoredCallRecord } from './records.js';

/**
 * Opens a cursor over a compiled query.
 *
 * @param pool - the pool to take the cursor's connection from (held until the cursor closes).
 * @param q - the compiled query (with its LIMIT/OFFSET).
 * @param onClose - called once when the cursor closes.
 * @throws the PostgreSQL error of the query (the connection is released first).
 */
export async function openPgCursor(pool: pg.Pool, q: PgCompiledQuery, onClose: () => void): Promise<CallCursorApi<StoredCallRecord>> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`DECLARE weft_calls NO SCROLL CURSOR FOR ${q.sql}`, q.params);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    onClose();
    throw err;
  }
  let open = true;
  // operations run one after another: a close arriving while a page is read waits for it
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const end = async (broken: boolean): Promise<void> => {
    if (!open) return;
    open = false;
    try {
      if (!broken) await client.query('COMMIT');
    } catch {
      broken = true;
    } finally {
      client.release(broken ? true : undefined);
      onClose();
    }
  };
  return {
    next: (max) =>
      serial(async () => {
        if (!open) return [];
        let rows: CallRow[];
        try {
          rows = (await client.query<CallRow>(`FETCH FORWARD ${Math.max(1, Math.floor(max))} FROM weft_calls`)).rows;
        } catch (err) {
          await end(true);
          throw err;
        }
        if (rows.length < max) await end(false);
        return rows.map(rowToRecord);
      }),
    close: () => serial(() => end(false)),
  };
}
