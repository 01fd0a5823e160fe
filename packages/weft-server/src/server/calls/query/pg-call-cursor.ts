/**
 * A stream-query cursor on PostgreSQL: a server-side cursor (`DECLARE ... CURSOR`) in a read-only REPEATABLE READ
 * transaction on its own connection, so a stream reads one consistent snapshot page by page (as the SQLite
 * store's snapshot cursor does) and never blocks writers. A cursor whose reader went away (its request aborted, or
 * its stream closed while a statement runs) cancels that statement instead of letting it run to its end.
 * @module
 */
import type pg from 'pg';
import { cancelBackend } from '../../db/pg-database.js';
import { isCanceledStatement } from '../../db/pg-json.js';
import { HttpError } from '../../http/http-error.js';
import type { CallCursorApi } from './call-cursor.js';
import type { PgCompiledQuery } from './pg-query-sql.js';
import { type CallRow, rowToRecord, type StoredCallRecord } from './records.js';

/** Options of {@link openPgCursor}. */
export interface PgCursorOptions {
  /** Called once when the cursor closes (or fails to open). */
  onClose: () => void;
  /** Pool whose connection sends `pg_cancel_backend` when the cursor is abandoned mid-statement. */
  cancelPool: pg.Pool;
  /** Aborted when nobody waits for the answer any more (the HTTP request closed): the running statement is cancelled. */
  signal?: AbortSignal;
  /** The cursor pool's `statement_timeout` in ms, named in the error of a statement it cut. */
  statementTimeoutMs: number;
}

/** The error of a cursor abandoned by its reader: the app answers it 503 (to a client that is gone), with no log line. */
function abandoned(): HttpError {
  return new HttpError(503, 'the request was closed before its answer; its PostgreSQL statement was cancelled');
}

/** The error of a statement PostgreSQL cut at `statement_timeout` (or an administrator cancelled): answered 503 with this detail. */
function timedOut(ms: number): HttpError {
  return new HttpError(
    503,
    `the query's PostgreSQL statement ran longer than the server's statement timeout (${ms} ms, WEFT_PG_STATEMENT_TIMEOUT_MS) and was cancelled; narrow the query (filter, $expr, limit) or raise the timeout`,
  );
}

/**
 * Opens a cursor over a compiled query.
 *
 * When `signal` aborts, or `close()` is called while a statement runs (a stream cancelled by its client), the
 * running statement is cancelled with `pg_cancel_backend` (sent on `cancelPool`) and the connection is destroyed,
 * not returned to the pool: a cancel that arrives late can only hit this connection, never another request's.
 *
 * @param pool - the pool to take the cursor's connection from (held until the cursor closes).
 * @param q - the compiled query (with its LIMIT/OFFSET).
 * @param options - the close callback, the cancel pool and the abort signal.
 * @throws the PostgreSQL error of the query (the connection is released first); HttpError 503 when `signal`
 *   aborted before the cursor was open, or when the `DECLARE` ran past the statement timeout (`next()` throws the
 *   same for a `FETCH`).
 */
export async function openPgCursor(pool: pg.Pool, q: PgCompiledQuery, options: PgCursorOptions): Promise<CallCursorApi<StoredCallRecord>> {
  const { onClose, cancelPool, signal, statementTimeoutMs } = options;
  if (signal?.aborted) {
    onClose();
    throw abandoned();
  }
  let open = true;
  let aborted = false;
  /** The statement on the wire, if any. */
  let running: Promise<unknown> | undefined;
  let client: pg.PoolClient | undefined;

  /** Runs one statement, remembered as the running one; after an abort, answers the abandonment instead of its error. */
  const statement = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    if (aborted) throw abandoned();
    const run = fn(client!);
    running = run;
    try {
      return await run;
    } catch (err) {
      if (aborted) throw abandoned();
      if (isCanceledStatement(err)) throw timedOut(statementTimeoutMs);
      throw err;
    } finally {
      running = undefined;
    }
  };
  /**
   * Closes once. An abandoned cursor (by default, one closed while a statement runs) cancels that statement and
   * destroys the connection; else the transaction ends (COMMIT unless `broken`) and the connection goes back to the
   * pool (destroyed when broken).
   */
  const end = async (broken: boolean, abandon = running !== undefined): Promise<void> => {
    if (!open) return;
    open = false;
    aborted = abandon;
    broken ||= abandon;
    const inFlight = running;
    try {
      // node-postgres sets processID from the BackendKeyData message; its typings do not declare it
      const pid = (client as { processID?: number } | undefined)?.processID;
      if (inFlight && typeof pid === 'number') await cancelBackend(cancelPool, pid).catch(() => {});
      await inFlight?.catch(() => {});
      if (!broken) await client?.query('COMMIT');
    } catch {
      broken = true;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      client?.release(broken ? true : undefined);
      onClose();
    }
  };
  const onAbort = (): void => void end(true, true);
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    client = await pool.connect();
    if (aborted) {
      client.release();
      throw abandoned();
    }
    await statement((c) => c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
    if (q.tupleFraction !== undefined) await statement((c) => c.query(`SET LOCAL cursor_tuple_fraction = ${q.tupleFraction}`));
    await statement((c) => c.query(`DECLARE weft_calls NO SCROLL CURSOR FOR ${q.sql}`, q.params));
  } catch (err) {
    // COMMIT of a transaction a failed statement aborted rolls it back
    await end(false);
    throw err;
  }
  // operations run one after another: a close arriving between pages waits for the page being read
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  return {
    next: (max) =>
      serial(async () => {
        if (!open) {
          if (aborted) throw abandoned();
          return [];
        }
        let rows: CallRow[];
        try {
          rows = (await statement((c) => c.query<CallRow>(`FETCH FORWARD ${Math.max(1, Math.floor(max))} FROM weft_calls`))).rows;
        } catch (err) {
          await end(true);
          throw err;
        }
        if (rows.length < max) await end(false);
        return rows.map(rowToRecord);
      }),
    // a close while a statement runs comes from a reader that left (a cancelled stream): cancel it, do not wait
    close: () => (running ? end(false) : serial(() => end(false))),
  };
}
