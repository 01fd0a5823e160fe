/**
 * Tables of one database: content-addressed create (local extension) and row queries (spec endpoint 8). The only
 * code that runs SQL on `tables` and `table_rows`.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { TableCreateRes, TableQueryReq, TableRowSchema } from '../../schema/tables.js';
import { rowDigest, tableDigest } from './digest.js';
import { jsonPath, parseFieldPath } from '../db/field-path.js';
import { sqliteValueSortKeys } from '../db/value-sort.js';

/** A validated `/table/query` body (zod output: `sort_by` order resolved). */
export type TableQuery = z.output<typeof TableQueryReq>;

/** A list is bound as one JSON parameter, so the SQL text does not depend on its length. */
const IN_LIST = 'IN (SELECT value FROM json_each(?))';

/**
 * SQLite JSON path of a sort field: a dotted path into the row's `val` (`score`, `inputs.question`,
 * `choices.0.text`, `usage."gpt-4.1".tokens`), parsed like call field paths: a numeric segment indexes an
 * array, a segment in double quotes may hold dots.
 *
 * @throws QueryError (answered 422 at `loc`) for an empty segment or an unterminated quote.
 */
function valJsonPath(field: string, loc: string[]): string {
  return jsonPath(parseFieldPath(field, loc).segments, loc);
}

interface RowRow {
  row_digest: string;
  val: string;
  row_index: number;
}

/** Tables of every project in one SQLite database (the `tables` and `table_rows` of migrations 3 and 6). */
export class TableStore {
  constructor(private readonly db: Database.Database) {}

  /**
   * Stores a table, unless the project already holds one with the same digest (creating is idempotent).
   *
   * @param projectId - `<entity>/<project>`.
   * @param rows - the rows in order; any JSON values.
   * @returns the table digest and one row digest per row, in order.
   * @see {@link rowDigest} and {@link tableDigest} for how digests are computed.
   */
  create(projectId: string, rows: readonly unknown[]): TableCreateRes {
    const rowDigests = rows.map(rowDigest);
    const digest = tableDigest(rowDigests);
    this.db.transaction(() => {
      const inserted = this.db
        .prepare('INSERT OR IGNORE INTO tables (project_id, digest, row_count, created_at) VALUES (?, ?, ?, ?)')
        .run(projectId, digest, rows.length, new Date().toISOString());
      if (inserted.changes === 0) return;
      const insertRow = this.db.prepare(
        'INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val) VALUES (?, ?, ?, ?, ?)',
      );
      rows.forEach((row, i) => insertRow.run(projectId, digest, i, rowDigests[i], JSON.stringify(row)));
    })();
    return { digest, row_digests: rowDigests };
  }

  /**
   * Reads rows of a table: optionally only those whose digest is listed, sorted by `sort_by` (each a dotted
   * path into `val`, `asc` | `desc`; ties, and no `sort_by`, keep insertion order), then `offset` skipped and
   * at most `limit` returned (all when absent).
   *
   * Sort order of mixed values is Weave's (db/value-sort.ts): numbers (numeric text too, booleans as 1/0) before
   * strings, objects and arrays (compared as text in code point order), missing and `null` last in both directions.
   *
   * An unknown digest (or one of another project) has no rows: `[]`, as Weave answers.
   *
   * @returns the rows, each `{digest, val, original_index}` (`original_index`: 0-based position in the table).
   * @throws QueryError (422) for a malformed sort path.
   * @see spec endpoint 8, "Query a table"
   */
  query(q: TableQuery): TableRowSchema[] {
    const where = ['project_id = ?', 'table_digest = ?'];
    const params: unknown[] = [q.project_id, q.digest];
    const wanted = q.filter?.row_digests;
    if (wanted) {
      where.push(`row_digest ${IN_LIST}`);
      params.push(JSON.stringify(wanted));
    }
    const order = (q.sort_by ?? []).flatMap((s, i) => {
      const path = valJsonPath(s.field, ['sort_by', String(i), 'field']);
      return sqliteValueSortKeys(() => (params.push(path), 'json_extract(val, ?)'), s.order === 'desc');
    });
    order.push('row_index ASC');
    params.push(q.limit ?? -1, q.offset ?? 0);
    const sql = `SELECT row_digest, val, row_index FROM table_rows WHERE ${where.join(' AND ')}
      ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(sql).all(...params) as RowRow[];
    return rows.map((r) => ({ digest: r.row_digest, val: JSON.parse(r.val) as unknown, original_index: r.row_index }));
  }
}
