/**
 * Tables of one PostgreSQL database: content-addressed create (local extension) and row queries (spec endpoint 8),
 * with the answers of the SQLite `TableStore`. The only code that runs SQL on `tables` and `table_rows` there.
 * @module
 */
import type { TableCreateRes, TableRowSchema } from '../../schema/tables.js';
import { rowDigest, tableDigest } from './digest.js';
import { parseFieldPath } from '../db/field-path.js';
import { QueryError } from '../db/query-error.js';
import { type PgDatabase, pgRows } from '../db/pg-database.js';
import { pgJsonText, readableJson } from '../db/pg-json.js';
import type { TableQuery } from './table-store.js';
import { pgValueSortKeys } from '../db/value-sort.js';

/** Rows per INSERT statement: one statement binds three arrays, so this only bounds the size of one message. */
const INSERT_CHUNK = 5_000;

/** Largest array index PostgreSQL's `json -> int` takes; a larger one finds nothing, as in SQLite. */
const MAX_INDEX = 2 ** 31 - 1;

interface RowRow {
  row_digest: string;
  /** The stored JSON text. */
  val: string;
  row_index: number;
}

/**
 * The SQL reading a sort field out of `val` (a `json` column), one `->` per segment: a numeric segment
 * indexes an array (`-> int`, NULL on an object, like SQLite's `[n]`), any other reads a key (`-> text`,
 * NULL on an array). Segments are bound parameters.
 *
 * @throws QueryError (answered 422 at `loc`) for an empty segment, an unterminated quote, or a segment
 *   holding a double quote (refused by the SQLite store too).
 */
function valPathSql(field: string, loc: string[], params: unknown[]): string {
  let sql = 'v';
  for (const seg of parseFieldPath(field, loc).segments) {
    if (seg.includes('"')) throw new QueryError(loc, `a path segment cannot contain a double quote: ${JSON.stringify(seg)}`);
    if (/^\d+$/.test(seg)) {
      const n = Number(seg);
      if (n > MAX_INDEX) return 'NULL::json';
      params.push(n);
      sql = `(${sql} -> $${params.length}::int)`;
    } else {
      params.push(seg);
      sql = `(${sql} -> $${params.length}::text)`;
    }
  }
  return sql;
}

/** ORDER BY terms of a sort field read as `json`: Weave's order of mixed values, as the SQLite store sorts (db/value-sort.ts). */
function orderTerms(x: string, dir: 'ASC' | 'DESC'): string[] {
  return pgValueSortKeys(`(${x})::jsonb`, dir === 'DESC');
}

/** Tables of every project in one PostgreSQL database (`tables` and `table_rows`, `val` as `json`: its text kept). */
export class PgTableStore {
  /** @param db - the migrated database. */
  constructor(private readonly db: PgDatabase) {}

  /**
   * Stores a table, unless the project already holds one with the same digest (creating is idempotent, also
   * when two servers create it at once: the second waits on the first's row and stores nothing).
   * Rows go in with multi-row inserts (`unnest` of arrays), {@link INSERT_CHUNK} per statement, in one transaction.
   *
   * @returns the table digest and one row digest per row, in order.
   * @see the SQLite `TableStore.create`.
   */
  async create(projectId: string, rows: readonly unknown[]): Promise<TableCreateRes> {
    const rowDigests = rows.map(rowDigest);
    const digest = tableDigest(rowDigests);
    await this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        'INSERT INTO tables (project_id, digest, row_count, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
        [projectId, digest, rows.length, new Date().toISOString()],
      );
      if (inserted.rowCount === 0) return;
      for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
        const end = Math.min(rows.length, at + INSERT_CHUNK);
        const indexes: number[] = [];
        const vals: string[] = [];
        for (let i = at; i < end; i++) {
          indexes.push(i);
          vals.push(pgJsonText(rows[i]));
        }
        await tx.query(
          `INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val)
           SELECT $1, $2, i, d, v FROM unnest($3::int[], $4::text[], $5::json[]) AS u(i, d, v)`,
          [projectId, digest, indexes, rowDigests.slice(at, end), vals],
        );
      }
    });
    return { digest, row_digests: rowDigests };
  }

  /**
   * Reads rows of a table: filter by row digest, sort on dotted paths into `val`, page; the semantics and the
   * order of mixed values of the SQLite `TableStore.query`.
   *
   * An unknown digest (or one of another project) has no rows: `[]`, as Weave answers.
   *
   * @returns the rows, each `{digest, val, original_index}`.
   * @throws QueryError (422) for a malformed sort path.
   * @see spec endpoint 8, "Query a table"
   */
  async query(q: TableQuery): Promise<TableRowSchema[]> {
    const params: unknown[] = [q.project_id, q.digest];
    const order = (q.sort_by ?? []).flatMap((s, i) =>
      orderTerms(valPathSql(s.field, ['sort_by', String(i), 'field'], params), s.order === 'desc' ? 'DESC' : 'ASC'),
    );
    const where = ['project_id = $1', 'table_digest = $2'];
    const wanted = q.filter?.row_digests;
    if (wanted) {
      params.push(wanted);
      where.push(`row_digest = ANY($${params.length}::text[])`);
    }
    params.push(q.limit ?? null, q.offset ?? 0);
    const readable = order.length > 0 ? ` CROSS JOIN LATERAL (SELECT ${readableJson('val')} AS v) r` : '';
    order.push('row_index ASC');
    const sql = `SELECT row_digest, val, row_index FROM table_rows${readable} WHERE ${where.join(' AND ')}
      ORDER BY ${order.join(', ')} LIMIT $${params.length - 1} OFFSET $${params.length}`;
    const rows = await pgRows<RowRow>(this.db.pool, sql, params);
    return rows.map((r) => ({ digest: r.row_digest, val: JSON.parse(r.val) as unknown, original_index: r.row_index }));
  }
}
