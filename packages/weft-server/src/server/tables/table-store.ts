/**
 * Tables of one database: content-addressed create (local extension) and row queries (spec endpoint 8). The only
 * code that runs SQL on `tables` and `table_rows`, for both engines (`val` as SQLite text or PostgreSQL `json`, its
 * text kept verbatim either way); the sort of a JSON path is each engine's SQL leaf.
 * @module
 */
import type { z } from 'zod';
import type { TableCreateRes, TableQueryReq, TableRowSchema } from 'weft-trace/wire';
import { tableRows } from './digest.js';
import type { Dialect } from '../db/dialect.js';
import { jsonPath, parseFieldPath } from '../db/field-path.js';
import { readableJson } from '../db/pg-json.js';
import { QueryError } from '../db/query-error.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, insert, run, type Steps } from '../db/sql-steps.js';
import { pgValueSortKeys, sqliteValueSortKeys } from '../db/value-sort.js';

/** A validated `/table/query` body (zod output: `sort_by` order resolved). */
export type TableQuery = z.output<typeof TableQueryReq>;

/** Largest array index PostgreSQL's `json -> int` takes; a larger one finds nothing, as in SQLite. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * The PostgreSQL SQL reading a sort field out of `v` (the readable `val`), one `->` per segment: a numeric segment
 * indexes an array (`-> int`, NULL on an object, like SQLite's `[n]`), any other reads a key (`-> text`, NULL on an
 * array). Segments are bound parameters.
 *
 * @throws QueryError (answered 422 at `loc`) for an empty segment, an unterminated quote, or a segment
 *   holding a double quote (refused by SQLite's JSON path too).
 */
function valPathSql(field: string, loc: string[], params: unknown[]): string {
  let sql = 'v';
  for (const seg of parseFieldPath(field, loc).segments) {
    if (seg.includes('"')) throw new QueryError(loc, `a path segment cannot contain a double quote: ${JSON.stringify(seg)}`);
    if (!/^\d+$/.test(seg)) {
      params.push(seg);
      sql = `(${sql} -> ?::text)`;
    } else if (Number(seg) > MAX_INDEX) return 'NULL::json';
    else {
      params.push(Number(seg));
      sql = `(${sql} -> ?::int)`;
    }
  }
  return sql;
}

/** How an engine sorts on `sort_by`: tables joined to `table_rows` and their parameters, ORDER BY terms and theirs. */
interface TableSort {
  join: string;
  joinParams: unknown[];
  order: string[];
  orderParams: unknown[];
}

/**
 * The sort of `sort_by` on an engine. SQLite: `json_extract(val, path)`, the field parsed like call field paths (a
 * numeric segment indexes an array, a segment in double quotes may hold dots). PostgreSQL: each path read once per
 * row in a lateral join (out of `val` made readable by readableJson: a document holding \u0000 would fail the JSON
 * operators).
 * @throws QueryError (answered 422 at `loc`) for an empty segment or an unterminated quote.
 */
function tableSort(d: Dialect, sorts: NonNullable<TableQuery['sort_by']>): TableSort {
  const loc = (i: number): string[] => ['sort_by', String(i), 'field'];
  if (d.engine === 'sqlite') {
    const orderParams: unknown[] = [];
    const order = sorts.flatMap((s, i) => {
      const path = jsonPath(parseFieldPath(s.field, loc(i)).segments, loc(i));
      return sqliteValueSortKeys(() => (orderParams.push(path), 'json_extract(val, ?)'), s.order === 'desc');
    });
    return { join: '', joinParams: [], order, orderParams };
  }
  const joinParams: unknown[] = [];
  const paths = sorts.map((s, i) => `${valPathSql(s.field, loc(i), joinParams)} AS s${i}`);
  return {
    join: sorts.length === 0 ? '' : ` CROSS JOIN LATERAL (SELECT ${readableJson('val')} AS v) r CROSS JOIN LATERAL (SELECT ${paths.join(', ')}) s`,
    joinParams,
    order: sorts.flatMap((s, i) => pgValueSortKeys(`(s.s${i})::jsonb`, s.order === 'desc')),
    orderParams: [],
  };
}

/** Stores a table and its rows, unless the project holds one with this digest (see {@link TableStore.create}). */
function* createTable(d: Dialect, projectId: string, rows: readonly unknown[]): Steps<TableCreateRes> {
  const { digest, rowDigests, texts } = tableRows(rows, d.jsonText);
  const created = yield* run('INSERT INTO tables (project_id, digest, row_count, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [projectId, digest, rows.length, new Date().toISOString()]);
  if (created > 0) {
    yield* insert({
      table: 'table_rows',
      fixed: { project_id: ['text', projectId], table_digest: ['text', digest] },
      columns: { row_index: 'int', row_digest: 'text', val: 'json' },
      rows: texts.map((text, i) => [i, rowDigests[i], text]),
    });
  }
  return { digest, row_digests: rowDigests };
}

/** Rows of a table, filtered, sorted and paged (see {@link TableStore.query}). */
function* queryTable(d: Dialect, q: TableQuery): Steps<TableRowSchema[]> {
  const sort = tableSort(d, q.sort_by ?? []);
  const where = ['project_id = ?', 'table_digest = ?'];
  const params: unknown[] = [...sort.joinParams, q.project_id, q.digest];
  const wanted = q.filter?.row_digests;
  if (wanted) {
    where.push(d.inList('row_digest'));
    params.push(d.list(wanted));
  }
  params.push(...sort.orderParams, q.limit ?? d.noLimit, q.offset ?? 0);
  const rows = yield* all<{ row_digest: string; val: string; row_index: number }>(`SELECT row_digest, val, row_index FROM table_rows${sort.join}
    WHERE ${where.join(' AND ')} ORDER BY ${[...sort.order, 'row_index ASC'].join(', ')} LIMIT ? OFFSET ?`, params);
  return rows.map((r) => ({ digest: r.row_digest, val: JSON.parse(r.val) as unknown, original_index: r.row_index }));
}

/** Tables of every project in one database (SQLite: `tables` and `table_rows` of migrations 3 and 6; PostgreSQL's). */
export class TableStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /**
   * Stores a table, unless the project already holds one with the same digest (creating is idempotent; on PostgreSQL
   * also when two servers create it at once: the second waits on the first's row and stores nothing). The rows go in
   * as one bulk insert in the same transaction.
   *
   * @param projectId - `<entity>/<project>`.
   * @param rows - the rows in order; any JSON values.
   * @returns the table digest and one row digest per row, in order.
   * @see `tableRows` (digest.ts) for how digests are computed.
   */
  create(projectId: string, rows: readonly unknown[]): Out<W, TableCreateRes> {
    return this.db.transaction(createTable, projectId, rows);
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
  query(q: TableQuery): Out<W, TableRowSchema[]> {
    return this.db.run(queryTable, q);
  }
}
