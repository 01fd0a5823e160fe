/**
 * The bulk insert of a new table's rows into SQLite's `table_rows`: one prepared statement run per row, inside the
 * caller's transaction, with a page cache large enough that the row-digest index is not spilled mid-transaction.
 * @module
 */
import type Database from 'better-sqlite3';
import type { TableRows } from './table-rows.js';

/**
 * Page cache (KiB) of the connection while a big table is inserted. The default (2 MiB) holds a few thousand pages:
 * a table of 100,000 rows dirties about 25 MiB of b-tree pages (the rows, the row-index key and the row-digest
 * index, whose inserts land at random places), so with the default most of them are written out to the WAL before
 * the commit and read back for the next insert. The previous size is restored after the insert.
 */
const BULK_CACHE_KIB = 64 * 1024;

/** Tables with at least this many rows get {@link BULK_CACHE_KIB} of page cache while they are inserted. */
const BULK_ROWS = 10_000;

/**
 * Inserts every row of a new table. Call inside a transaction (the caller's `tables` row and these rows commit
 * together).
 *
 * @param db - the SQLite connection.
 * @param projectId - `<entity>/<project>`.
 * @param table - the rows' digests and stored texts ({@link tableRows}).
 */
export function insertTableRows(db: Database.Database, projectId: string, table: TableRows): void {
  const { digest, rowDigests, texts } = table;
  const insert = db.prepare('INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val) VALUES (?, ?, ?, ?, ?)');
  const before = texts.length >= BULK_ROWS ? (db.pragma('cache_size', { simple: true }) as number) : undefined;
  if (before !== undefined) db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  try {
    for (let i = 0; i < texts.length; i++) insert.run(projectId, digest, i, rowDigests[i], texts[i]);
  } finally {
    if (before !== undefined) db.pragma(`cache_size = ${before}`);
  }
}
