/**
 * Store methods written once for both engines: a method is a generator that yields its SQL steps (`?` placeholders,
 * built through the dialect) and receives each step's result; an engine's runner (db/sql-runner.ts) drives it,
 * SQLite synchronously, PostgreSQL asynchronously. `yield*` the helpers here to get typed results:
 *
 * ```ts
 * function* content(d: Dialect, projectId: string, digest: string): Steps<Buffer | undefined> {
 *   const row = yield* get<{ content: Buffer }>('SELECT content FROM files WHERE project_id = ? AND digest = ?', [projectId, digest]);
 *   return row?.content;
 * }
 * runner.run(content, projectId, digest); // SQLite: the Buffer; PostgreSQL: a Promise of it
 * ```
 * SQL one engine alone runs (a leaf picked by `d.engine`) may use that engine's own placeholders instead: SQLite's
 * `@name` with one object parameter, PostgreSQL's `$n` (then the text holds no `?`).
 * @module
 */

/** Element types of a bulk insert's columns: PostgreSQL's (the array cast), and how SQLite binds the value. */
export const COLUMN_TYPES = {
  text: { pg: 'text', sqlite: '?' },
  int: { pg: 'int', sqlite: '?' },
  float8: { pg: 'float8', sqlite: '?' },
  /** JSON text, kept as text by SQLite and as `json` by PostgreSQL. */
  json: { pg: 'json', sqlite: '?' },
  /** JSON text, kept as binary JSONB by SQLite (`jsonb(?)`) and as `json` by PostgreSQL. */
  jsonb: { pg: 'json', sqlite: 'jsonb(?)' },
} as const;

/** A column type of a bulk insert. */
export type ColumnType = keyof typeof COLUMN_TYPES;

/** Rows inserted by one statement per engine (SQLite: one prepared insert per row; PostgreSQL: `unnest` of arrays). */
export interface BulkInsert {
  /** The table. */
  table: string;
  /** Columns whose value is the same in every row: name → [type, value]. */
  fixed?: Readonly<Record<string, readonly [ColumnType, unknown]>>;
  /** The other columns and their types, in the order of each row's values. */
  columns: Readonly<Record<string, ColumnType>>;
  /** The rows: one value per entry of `columns`, in its order. */
  rows: readonly (readonly unknown[])[];
  /** SQL after the values, e.g. `ON CONFLICT (project_id, id) DO NOTHING`. */
  tail?: string;
  /** Columns of each inserted row to answer (`RETURNING`); none when absent. */
  returning?: string;
}

/** One step of a store method: a statement to run, with `?` placeholders. */
export type Step =
  /** `all`: every row; `get`: the first row or undefined; `run`: the number of rows changed. */
  | { kind: 'all' | 'get' | 'run'; sql: string; params: readonly unknown[] }
  /** Rows inserted; answers the `returning` columns of the inserted rows, in row order. */
  | { kind: 'insert'; insert: BulkInsert };

/** A store method: yields its steps, receives each one's result, returns the method's answer. */
export type Steps<T> = Generator<Step, T, unknown>;

/** Every row of a query. */
export function* all<R>(sql: string, params: readonly unknown[] = []): Steps<R[]> {
  return (yield { kind: 'all', sql, params }) as R[];
}

/** The first row of a query, or undefined. */
export function* get<R>(sql: string, params: readonly unknown[] = []): Steps<R | undefined> {
  return (yield { kind: 'get', sql, params }) as R | undefined;
}

/** Runs a statement. @returns how many rows it changed. */
export function* run(sql: string, params: readonly unknown[] = []): Steps<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

/** Inserts rows (see {@link BulkInsert}). @returns the `returning` columns of the rows inserted (none without `returning`). */
export function* insert<R = Record<string, unknown>>(spec: BulkInsert): Steps<R[]> {
  return (yield { kind: 'insert', insert: spec }) as R[];
}
