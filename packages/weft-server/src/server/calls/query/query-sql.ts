/**
 * A `/calls/stream_query` request in SQLite: the SQLite leaves of the shared walker and field compiler (query-walk.ts,
 * fields.ts) and `compileCallsQuery`. Values compare by storage class, NULL < numbers < text, as JSON values do (and as
 * the PostgreSQL leaves compare, pg-query-sql.ts).
 * @module
 */
import { INT_COLUMNS, PLAIN_COLUMNS } from './fields.js';
import { newParams } from '../../db/sql-params.js';
import { type CallsQuery, type CompiledCallsQuery, compileWith, type QueryLeaves, type Side } from './query-walk.js';
import { STORED_COLUMNS } from './records.js';
import { jsonPath } from '../../db/field-path.js';
import { toSql } from '../../db/sql-functions.js';
import { sqliteValueSortKeys } from '../../db/value-sort.js';

export type { CallsQuery, CompiledCallsQuery } from './query-walk.js';

/**
 * True when `o` is a plain column and `other` a literal of the same storage class (text column and string, or
 * `svc_run_step` / `svc_run_step_end` and number or boolean): SQLite's affinity changes nothing then, and the bare column keeps its index.
 */
function sameClass(s: Side, other: Side): boolean {
  if (!('$getField' in s.o) || !('$literal' in other.o)) return false;
  const path = s.o.$getField;
  const v = other.o.$literal;
  if (INT_COLUMNS.has(path)) return typeof v === 'number' || typeof v === 'boolean';
  return PLAIN_COLUMNS.has(path) && typeof v === 'string';
}

/**
 * An operand of a comparison with its column affinity removed (unary `+`) unless it is a literal or of the class of
 * each of `others`: values compare by storage class. With affinity, SQLite converted the other side first: a text
 * column against a number literal compared as text with the number's REAL text (`op_name = 10` against '10.0', never
 * true), an INTEGER column or a `$convert` against text as numbers.
 */
const compared = (s: Side, others: readonly Side[]): string =>
  ('$literal' in s.o || others.every((other) => sameClass(s, other)) ? s.c.sql : `+${s.c.sql}`);

/** Lists up to this long are bound value by value (`inValues`). */
const SHORT_LIST = 8;

/** SQLite's leaves; `$convert` int and double read numbers and numeric text, anything else null (`weft_numq`, db/sql-functions.ts). */
export const SQLITE_LEAVES: QueryLeaves = {
  params: () => newParams(false),
  column: (name) => name,
  TRUE: '1',
  FALSE: '0',
  // booleans as 0/1, objects and arrays as JSON text (`toSql`, as the SQL functions answer them)
  literal: (value, params) => ({ sql: value === null || value === undefined ? 'NULL' : params.bind(toSql(value)) }),
  scalar: (sql) => sql,
  at: (doc, keys) => `json_extract(${doc}, '${jsonPath([...keys], [])}')`,
  path: (doc, f, params) => `json_extract(${doc}, ${params.bind(f.jsonPath)})`,
  get: (doc, segments, params, exact) =>
    `${exact ? 'weft_get_exact' : 'weft_get'}(${doc}, ${params.bind(JSON.stringify(segments))})`,
  hashPath: false,
  cmp: (a, op, n) => `${a} ${op} ${n}`,
  joinInOrder: 'CROSS JOIN',
  opShort: (opName) => `weft_op_short(${opName})`,
  // JSONB (SQLite's binary JSON) as text
  payload: 'json(f.payload)',
  boolText: (doc, segments, params) =>
    `(CASE json_type(${doc}, ${params.bind(jsonPath([...segments], []))}) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' END)`,
  epoch: (timestamp) => `unixepoch(${timestamp}, 'subsec')`,
  convert: {
    double: (s) => `CAST(weft_numq(${s}) AS REAL)`,
    int: (s) => `CAST(weft_numq(${s}) AS INTEGER)`,
    string: (s) => `CAST(${s} AS TEXT)`,
    bool: (s) => `weft_bool(${s})`,
    exists: (s) => `(${s} IS NOT NULL)`,
  },
  asValue: (condition) => ({ sql: `(${condition})` }),
  truthy: (value) => value.sql,
  compare: (op, a, b) => `${compared(a, [b])} ${op === '=' ? 'IS' : op} ${compared(b, [a])}`,
  inList: (needle, hay) => `${compared(needle, hay)} IN (${hay.map((h) => compared(h, [needle])).join(', ')})`,
  text: (value) => `CAST(${value} AS TEXT)`,
  contains: (text, substr) => `instr(${text}, ${substr}) > 0`,
  byTrace: 'INDEXED BY calls_trace',
  // the primary key of the WITHOUT ROWID table `calls` (SQLite names it so: the table's first unique constraint)
  byIds: 'INDEXED BY sqlite_autoindex_calls_1',
  byParent: 'INDEXED BY calls_parent',
  // a short list (an id's two forms: `idForms`) binds each value, so the planner sees a few equalities and reads their
  // index (as json_each, it read the whole project in started_at order to skip a sort: a call by id took 0.6 s at
  // 1,000,000 calls); a longer one is bound as one JSON parameter, so the SQL text (and its cached statement) does
  // not depend on its length
  inValues: (expr, values, params) => (values.length <= SHORT_LIST
    ? `${expr} IN (${values.map((v) => params.bind(v)).join(', ')})`
    : `${expr} IN (SELECT value FROM json_each(${params.bind(JSON.stringify(values))}))`),
  // a never-null column in index order (NULLS LAST would sort all matches first)
  scalarSort: (sql, desc, kind) => `${sql} ${desc ? 'DESC' : 'ASC'}${kind === 'never-null' ? '' : ' NULLS LAST'}`,
  valueSort: sqliteValueSortKeys,
  rowBytes: (alias) => `(${STORED_COLUMNS.map((c) => `COALESCE(length(CAST(${alias}.${c} AS BLOB)), 0)`).join(' + ')})`,
};

/**
 * Compiles a query for SQLite. The default order and single-value filters on op_names, trace_ids, parent_ids (and
 * trace_roots_only) read an index in order, so the first row streams without sorting the matches first. Sorts place
 * nulls last in both directions, and a JSON value sorts numbers (numeric text too) before other values (Weave's
 * order, `compileField` in fields.ts).
 *
 * @param q - a validated request body.
 * @returns SQL and parameters; no request value is ever part of the SQL text.
 * @throws QueryError (→ 422) for an unknown sort or query field.
 * @see spec endpoint 3, "Stream-query calls"
 */
export function compileCallsQuery(q: CallsQuery): CompiledCallsQuery {
  return compileWith(q, SQLITE_LEAVES);
}
