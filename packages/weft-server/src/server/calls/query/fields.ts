/**
 * The one compiler of a call's field path (`op_name`, `summary.usage.x.total_tokens`, `summary.status`) into
 * parameterized SQL and sort keys, for both engines: each engine gives the SQL of a few leaves ({@link FieldLeaves}:
 * query-sql.ts for SQLite, pg-query-sql.ts for PostgreSQL), and a server-derived field is one row of `DERIVED`.
 * @module
 */
import { jsonPath, parseFieldPath } from '../../db/field-path.js';
import { QueryError } from '../../db/query-error.js';
import type { Params } from '../../db/sql-params.js';
import { END_COLUMNS, START_COLUMNS } from '../write/call-fields.js';
import { type FeedbackField, parseFeedbackField } from './feedback-fields.js';
import { CALL_COLUMNS } from './records.js';

/** Columns holding JSON text; a dotted path reads inside them. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['attributes', 'inputs', 'output', 'exception', 'summary']);

/** Scalar columns that can be read, compared and sorted directly: the record's columns but the JSON ones. */
export const PLAIN_COLUMNS: ReadonlySet<string> = new Set(CALL_COLUMNS.filter((c) => !JSON_COLUMNS.has(c)));

/** The integer columns among {@link PLAIN_COLUMNS} (the rest hold text): those a start or an end writes as `int`. */
export const INT_COLUMNS: ReadonlySet<string> = new Set([...START_COLUMNS, ...END_COLUMNS].filter((c) => c.type === 'int').map((c) => c.name));

/** Columns whose value is never null in a record (a stored call always has them). */
const NEVER_NULL = new Set(['id', 'project_id', 'started_at']);

/** A compiled operand: SQL of its value, and what an index-friendly equality needs to know (PostgreSQL). */
export interface Compiled {
  sql: string;
  /** A plain text column. */
  textColumn?: string;
  /** The placeholder of a text literal. */
  textLiteral?: string;
}

/** A compiled field: its value, and its ORDER BY terms (ascending unless `desc`). */
export interface Field extends Compiled {
  sort(desc: boolean): string[];
}

/**
 * A call's field path, resolved the same way on both engines: a feedback field, a plain column, a whole JSON column
 * (read as its value), or a path inside a JSON column (the segments after the column, whether one was quoted, and
 * SQLite's JSON path of them).
 */
export type CallField = { kind: 'feedback'; feedback: FeedbackField } | { kind: 'plain'; column: string }
  | { kind: 'json'; column: string } | PathField;

/** A path inside a JSON column. */
export type PathField = { kind: 'path'; column: string; rest: string[]; quoted: boolean; jsonPath: string };

/** An engine's SQL of the leaves of a field; a value is in the engine's form (SQLite's own; jsonb on PostgreSQL). */
export interface FieldLeaves {
  /** A column of `calls` as the statement names it. */
  column(name: string): string;
  /** SQL false (also an empty `$or` or `$in`). */
  readonly FALSE: string;
  /** A literal, bound (booleans as 1/0, objects and arrays as their JSON text). */
  literal(value: unknown, params: Params): Compiled;
  /** A scalar (a column, a derived field) as a value. */
  scalar(sql: string): string;
  /** The value at a constant path of plain keys (none: the whole document) in the JSON column `doc`. */
  at(doc: string, keys: readonly string[]): string;
  /** The value at a bound path in `doc`, read as written (SQLite `json_extract`, PostgreSQL `#>`). */
  path(doc: string, f: PathField, params: Params): string;
  /** The value at a bound path read key by key (`weft_get_exact`), or also joining segments into keys (`weft_get`). */
  get(doc: string, segments: readonly string[], params: Params, exact: boolean): string;
  /** `path` reads as `#>`: a numeric segment names an object's key too, a signed one ("-1") indexes from the end. */
  readonly hashPath: boolean;
  /** `a` compared with the number `n`, as the engine compares values. */
  cmp(a: string, op: '=' | '>', n: number): string;
  /** The join of a recursive CTE to `calls` that keeps this order (SQLite's `CROSS JOIN`). */
  readonly joinInOrder: string;
  /** A timestamp (normalized ISO 8601 text) as epoch seconds, milliseconds included. */
  epoch(timestamp: string): string;
  /** The name inside an op ref (`opShortName` of schema/refs.ts), else the name. */
  opShort(opName: string): string;
  /** The feedback payload (of `feedback f`) as a JSON document. */
  readonly payload: string;
  /** The text `'true'` / `'false'` when the value at `segments` of `doc` is a JSON boolean, else NULL (Weave's `JSON_VALUE`). */
  boolText(doc: string, segments: readonly string[], params: Params): string;
  /** A scalar's ORDER BY term: nulls last (a `never-null` column may keep its index order); `text` by code point. */
  scalarSort(sql: string, desc: boolean, kind?: 'never-null' | 'text'): string;
  /** The ORDER BY terms of a value (db/value-sort.ts); each `read` binds the value's parameters again. */
  valueSort(read: () => string, desc: boolean): string[];
}

/** A server-derived field: its SQL over an engine's leaves, and whether it is text. */
type Derived = { sql: (e: FieldLeaves) => string; text: boolean };

/**
 * Part of `summary.status`, for calls whose end came without `status_counts` (the Weave SDKs send none; see
 * descendant-errors.ts): true when the current `calls` row (unaliased, as the queries select it) ended without an
 * exception, has no `summary.status_counts`, and some stored descendant of it (by parent_id, at any depth) has an
 * exception. Rows with `status_counts` (weft's SDK always sends them) skip the walk. The walk uses UNION, so a cycle of
 * parent ids ends, and reads the `(project_id, parent_id, ...)` index.
 */
const descendantFailed = (e: FieldLeaves): string => `(CASE WHEN calls.ended_at IS NOT NULL AND calls.exception IS NULL
    AND ${e.at('calls.summary', ['status_counts'])} IS NULL
  THEN EXISTS (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = calls.project_id AND d.parent_id = calls.id
      UNION SELECT c.id FROM below b ${e.joinInOrder} calls c ON c.project_id = calls.project_id AND c.parent_id = b.id
    )
    SELECT 1 FROM calls e WHERE e.project_id = calls.project_id AND e.id IN (SELECT id FROM below)
      AND e.exception IS NOT NULL)
  ELSE ${e.FALSE} END)`;

/** `summary.status`: the same rule as `deriveStatus` in schema/call-status.ts. */
const STATUS: Derived = { text: true, sql: (e) => `(CASE WHEN calls.ended_at IS NULL THEN 'running'
  WHEN calls.exception IS NOT NULL THEN 'error'
  WHEN ${e.cmp(e.at('calls.summary', ['cancelled']), '=', 1)} THEN 'cancelled'
  WHEN ${e.cmp(e.at('calls.summary', ['status_counts', 'error']), '>', 0)} THEN 'descendant_error'
  WHEN ${descendantFailed(e)} THEN 'descendant_error'
  ELSE 'success' END)` };

/** `summary.latency_ms`: milliseconds between started_at and ended_at, NULL while running. */
const LATENCY: Derived = {
  text: false,
  sql: (e) => `(CASE WHEN calls.ended_at IS NULL THEN NULL
  ELSE CAST(ROUND((${e.epoch('calls.ended_at')} - ${e.epoch('calls.started_at')}) * 1000) AS BIGINT) END)`,
};

/** `summary.weave.trace_name`: a non-empty display name, else the op's short name (weave-summary.ts `traceName`). */
const TRACE_NAME: Derived = {
  text: true,
  sql: (e) => `COALESCE(NULLIF(calls.display_name, ''), ${e.opShort('calls.op_name')})`,
};

/** Server-derived fields that exist only in records, computed in SQL; `summary.weave.*` are Weave's names of them. */
const DERIVED: Readonly<Record<string, Derived>> = {
  'summary.status': STATUS,
  'summary.latency_ms': LATENCY,
  'summary.weave.status': STATUS,
  'summary.weave.latency_ms': LATENCY,
  'summary.weave.trace_name': TRACE_NAME,
};

/** The SQL of a derived field on an engine, as a scalar (text; a number for latency); it binds nothing. */
export const derivedSql = (path: 'summary.status' | 'summary.latency_ms', e: FieldLeaves): string =>
  DERIVED[path]!.sql(e);

/**
 * Resolves a field path that is not a derived field (see {@link compileField} for the forms).
 * @throws QueryError for an unknown column or a malformed path.
 */
export function parseCallField(path: string, loc: string[]): CallField {
  const feedback = parseFeedbackField(path, loc);
  if (feedback) return { kind: 'feedback', feedback };
  const { segments, quoted } = parseFieldPath(path, loc);
  const [column = '', ...rest] = segments;
  if (rest.length === 0 && PLAIN_COLUMNS.has(column)) return { kind: 'plain', column };
  if (rest.length === 0 && JSON_COLUMNS.has(column)) return { kind: 'json', column };
  if (!JSON_COLUMNS.has(column)) {
    const known = [...PLAIN_COLUMNS, ...JSON_COLUMNS].join(', ');
    throw new QueryError(loc, `unknown field ${JSON.stringify(path)}; expected one of ${known}, or a dotted path inside a JSON column`);
  }
  return { kind: 'path', column, rest, quoted, jsonPath: jsonPath(rest, loc) };
}

/**
 * The value of a feedback field, a whole JSON column or a path in one; binds its parameters in placeholder order.
 * `boolAsText`: a feedback payload's boolean reads as the text `true` / `false` (compared with a string, as Weave's
 * `JSON_VALUE` reads it), else as 1 / 0.
 */
function jsonValue(f: Exclude<CallField, { kind: 'plain' }>, params: Params, e: FieldLeaves, boolAsText = false): string {
  if (f.kind === 'feedback') {
    // the newest feedback (of the type, or any) holding the path
    const { feedback: fb } = f;
    const value = (): string => e.get(e.payload, fb.segments, params, true);
    const payload = (): string => (boolAsText ? `COALESCE(${e.boolText(e.payload, fb.segments, params)}, ${value()})` : value());
    const read = fb.column === undefined ? payload() : e.scalar(`f.${fb.column}`);
    const type = fb.type === null ? '' : ` AND f.feedback_type = ${params.bind(fb.type)}`;
    return `(SELECT v FROM (SELECT ${read} AS v, f.created_at AS c, f.id AS i FROM feedback f
      WHERE f.project_id = calls.project_id AND f.call_id = calls.id${type}) x
      WHERE v IS NOT NULL ORDER BY c DESC, i DESC LIMIT 1)`;
  }
  const doc = e.column(f.column);
  // a whole JSON column is its value, as one level down: a string output compares as the string, not its JSON text
  if (f.kind === 'json') return e.at(doc, []);
  const { rest, quoted } = f;
  // #> reads a signed or space-led number ("-1": from the end) as an array index; SQLite's paths read it as a key only
  const numeric = rest.some((seg) => /^\d+$/.test(seg));
  if (e.hashPath && rest.some((seg) => !/^\d+$/.test(seg) && /^\s*[+-]?\d+$/.test(seg))) {
    return e.get(doc, rest, params, quoted);
  }
  const direct = e.path(doc, f, params);
  // a numeric segment indexes an array and, on an object, names a key (as #> reads it; SQLite's paths only index)
  if (quoted) return numeric && !e.hashPath ? `COALESCE(${direct}, ${e.get(doc, rest, params, true)})` : direct;
  return rest.length < 2 && !numeric ? direct : `COALESCE(${direct}, ${e.get(doc, rest, params, false)})`;
}

/**
 * Compiles a field path into an engine's SQL. Values never enter the SQL text: they are bound to `params`.
 *
 * Keys holding dots: a quoted segment is one key (`summary.usage."gpt-4.1".total_tokens`). An unquoted path of two
 * or more segments inside a JSON column is read as written first; when that finds nothing, its segments may be joined
 * to match keys that contain dots (`weft_get`, see `resolvePath`), so `summary.usage.gpt-4.1.total_tokens` works too.
 *
 * Sorts: a plain column or derived field places nulls last in both directions; a JSON value (a path, a whole JSON
 * column, a feedback field) sorts as Weave sorts dynamic fields: present values first, then numbers (numeric text
 * included) by value, then the rest by text; nulls last in both directions.
 *
 * @param path - a feedback field (`feedback.[<type>].payload.<path>`, see feedback-fields.ts), a plain column
 *   (`op_name`), a JSON column (`inputs`: its JSON value, a string as the string), a dotted path inside a JSON column
 *   (`attributes.env.region`, `summary.usage.m.total_tokens`), or a derived field (`summary.status`,
 *   `summary.weave.trace_name`, ...).
 * @param params - the parameters of the statement being built; appended to.
 * @param loc - location of the path in the request, for errors.
 * @param e - the engine's leaves.
 * @param boolAsText - a feedback payload's boolean reads as the text `true` / `false` (a comparison with a string).
 * @returns SQL over the `calls` table: the value, a plain text column's name, and the sort keys (binding again).
 * @throws QueryError for an unknown column or a malformed path (the same errors on both engines).
 */
export function compileField(path: string, params: Params, loc: string[], e: FieldLeaves, boolAsText = false): Field {
  const derived = DERIVED[path];
  if (derived !== undefined) {
    const sql = derived.sql(e);
    return { sql: e.scalar(sql), sort: (desc) => [e.scalarSort(sql, desc, derived.text ? 'text' : undefined)] };
  }
  const f = parseCallField(path, loc);
  if (f.kind === 'plain') {
    const sql = e.column(f.column);
    const kind = NEVER_NULL.has(f.column) ? 'never-null' : undefined;
    const textColumn = INT_COLUMNS.has(f.column) ? undefined : sql;
    return { sql: e.scalar(sql), textColumn, sort: (desc) => [e.scalarSort(sql, desc, kind)] };
  }
  const sql = jsonValue(f, params, e, boolAsText);
  let reads = 0;
  return { sql, sort: (desc) => e.valueSort(() => (reads++ === 0 ? sql : jsonValue(f, params, e)), desc) };
}
