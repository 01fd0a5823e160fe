/**
 * Cursors over query results that hand out rows a page at a time, so a response can stream with backpressure.
 * @module
 */
import { isMemoryPath, openReadOnly } from '../../db/open-database.js';
import type { Prepare } from '../../db/statement-cache.js';
import { andThen, type MaybePromise } from '../../db/store-api.js';
import type { CompiledCallsQuery } from './query-sql.js';
import { type CallRow, rowToRecord, type StoredCallRecord } from './records.js';

/**
 * Rows of one query, read on demand, the one shape of both engines' cursors (`CallStore.queryCalls`): SQLite's
 * answer values, PostgreSQL's Promises. Single use.
 */
export interface CallCursorApi<R> {
  /** Up to `max` more records; fewer (possibly none) means the end was reached; none after `close()`. */
  next(max: number): MaybePromise<R[]>;
  /** Releases the cursor's resources; idempotent. */
  close(): MaybePromise<void>;
}

const paged = (sql: string): string => `${sql} LIMIT ? OFFSET ?`;

/**
 * Rows an in-memory cursor reads per statement at least (handing them out `max` at a time): each statement runs the
 * query again up to its OFFSET (sorting the project's calls where the order has no index), so reading 20,000 calls in
 * pages of 200 cost 100 statements; in pages of 2,000, 10.
 */
const MEMORY_PAGE = 2_000;

/**
 * Opens a cursor over a compiled query. On a file: its own read-only connection and one open `.iterate()`, a
 * consistent snapshot (WAL) that never blocks writers on the main connection. In memory (`:memory:` cannot have a
 * second connection): LIMIT/OFFSET pages of at least {@link MEMORY_PAGE} rows on the shared connection, never leaving a statement open
 * between pages (an open iterator would block writers); pages may shift if rows are written mid-stream.
 *
 * @param path - the database file (must exist), or `:memory:`.
 * @param prepare - statement source of the main connection.
 * @param q - the compiled query.
 * @param onClose - called once when the cursor closes.
 */
export function sqliteCursor(path: string, prepare: Prepare, q: CompiledCallsQuery, onClose: () => void): CallCursorApi<StoredCallRecord> {
  let read: (max: number) => CallRow[];
  let release = onClose;
  if (isMemoryPath(path)) {
    let taken = 0;
    let ahead: CallRow[] = [];
    read = (max) => {
      if (ahead.length < max) {
        const left = q.limit === null ? Infinity : q.limit - taken;
        const want = Math.min(Math.max(max - ahead.length, MEMORY_PAGE), left);
        const rows = want > 0 ? (prepare(paged(q.sql)).all(...q.params, want, q.offset + taken) as CallRow[]) : [];
        taken += rows.length;
        ahead = ahead.length === 0 ? rows : ahead.concat(rows);
      }
      return ahead.splice(0, max);
    };
  } else {
    const db = openReadOnly(path);
    // rows as arrays, made objects here: better-sqlite3's own row objects cost a 10,000-call trace's read ~40% more
    const statement = db.prepare(paged(q.sql)).raw(true);
    const names = statement.columns().map((c) => c.name);
    const rows = statement.iterate(...q.params, q.limit ?? -1, q.offset) as IterableIterator<unknown[]>;
    read = (max) => {
      const out: CallRow[] = [];
      for (let r; out.length < max && !(r = rows.next()).done; ) {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i += 1) row[names[i]!] = r.value[i];
        out.push(row as unknown as CallRow);
      }
      return out;
    };
    release = () => {
      rows.return?.();
      db.close();
      onClose();
    };
  }
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    release();
  };
  return {
    next(max) {
      if (!open) return [];
      const rows = read(max);
      if (rows.length < max) close();
      return rows.map(rowToRecord);
    },
    close,
  };
}

/**
 * A cursor whose pages go through `fn` (e.g. a stream query's record pipeline); closing it closes `inner`.
 *
 * @param inner - the cursor to read from.
 * @param fn - maps one page; may throw (the stream then fails like a read error).
 */
export function mapCursor<A, B>(inner: CallCursorApi<A>, fn: (page: A[]) => MaybePromise<B[]>): CallCursorApi<B> {
  return {
    next: (max) => andThen(inner.next(max), (page) => (page.length === 0 ? [] : fn(page))),
    close: () => inner.close(),
  };
}
