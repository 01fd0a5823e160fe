/**
 * The bulk insert of a new table's rows into PostgreSQL's `table_rows`: multi-row inserts of `unnest`ed arrays,
 * {@link INSERT_CHUNK} rows per statement, inside the caller's transaction.
 * @module
 */
import type pg from 'pg';
import type { TableRows } from './table-rows.js';

/** Rows per INSERT statement: one statement binds three arrays, so this only bounds the size of one message. */
const INSERT_CHUNK = 10_000;

/** The statement, prepared once per connection (named). */
const INSERT_ROWS = {
  name: 'weft-table-rows-insert',
  text: `INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val)
    SELECT $1, $2, $3::bigint + u.o - 1, u.d, u.v FROM unnest($4::text[], $5::json[]) WITH ORDINALITY AS u(d, v, o)`,
};

/**
 * Inserts every row of a new table. Call inside a transaction (the caller's `tables` row and these rows commit
 * together).
 *
 * @param tx - the transaction's client.
 * @param projectId - `<entity>/<project>`.
 * @param table - the rows' digests and stored texts ({@link tableRows}; texts as `pgJsonTextOf` writes them).
 */
export async function pgInsertTableRows(tx: pg.PoolClient, projectId: string, table: TableRows): Promise<void> {
  const { digest, rowDigests, texts } = table;
  for (let at = 0; at < texts.length; at += INSERT_CHUNK) {
    const end = Math.min(texts.length, at + INSERT_CHUNK);
    await tx.query({ ...INSERT_ROWS, values: [projectId, digest, at, rowDigests.slice(at, end), texts.slice(at, end)] });
  }
}
