/**
 * Maps a dotted field path of a call (`op_name`, `summary.usage.x.total_tokens`) to a parameterized SQL expression.
 * @module
 */
import { jsonPath, parseFieldPath } from '../db/field-path.js';
import { QueryError } from '../db/query-error.js';
import { DESCENDANT_FAILED_SQL } from './descendant-errors.js';
import { type FeedbackField, parseFeedbackField } from './feedback-fields.js';

/** Scalar columns that can be read, compared and sorted directly. */
export const PLAIN_COLUMNS = new Set([
  'id', 'project_id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id',
  'started_at', 'ended_at', 'svc_user_id', 'svc_run_id', 'svc_run_step', 'svc_run_step_end',
]);

/** The integer columns among {@link PLAIN_COLUMNS} (the rest hold text). */
export const INT_COLUMNS: ReadonlySet<string> = new Set(['svc_run_step', 'svc_run_step_end']);

/** Columns holding JSON text; a dotted path reads inside them with `json_extract`. */
export const JSON_COLUMNS = new Set(['attributes', 'inputs', 'output', 'exception', 'summary']);

/** SQL of `summary.status`, the same rule as `deriveStatus` in schema/call-status.ts. */
const STATUS_SQL = `(CASE WHEN ended_at IS NULL THEN 'running'
  WHEN exception IS NOT NULL THEN 'error'
  WHEN json_extract(summary, '$.cancelled') = 1 THEN 'cancelled'
  WHEN COALESCE(json_extract(summary, '$.status_counts.error'), 0) > 0 THEN 'descendant_error'
  WHEN ${DESCENDANT_FAILED_SQL} THEN 'descendant_error'
  ELSE 'success' END)`;

/** SQL of `summary.latency_ms`: milliseconds between started_at and ended_at, NULL while running. */
const LATENCY_SQL = `(CASE WHEN ended_at IS NULL THEN NULL
  ELSE CAST(ROUND((julianday(ended_at) - julianday(started_at)) * 86400000) AS INTEGER) END)`;

/** SQL of `summary.weave.trace_name`: a non-empty display name, else the op's short name (weave-summary.ts `traceName`). */
const TRACE_NAME_SQL = `COALESCE(NULLIF(display_name, ''), weft_op_short(op_name))`;

/** Server-derived fields that exist only in records, computed in SQL; `summary.weave.*` are Weave's names of them. */
const DERIVED: Record<string, string> = {
  'summary.status': STATUS_SQL,
  'summary.latency_ms': LATENCY_SQL,
  'summary.weave.status': STATUS_SQL,
  'summary.weave.latency_ms': LATENCY_SQL,
  'summary.weave.trace_name': TRACE_NAME_SQL,
};

/** A payload path of the call's newest feedback (of a type, or any) that holds it; see `parseFeedbackField`. */
function feedbackSql(f: FeedbackField, params: unknown[]): string {
  if (f.column === undefined) params.push(JSON.stringify(f.segments));
  if (f.type !== null) params.push(f.type);
  const read = f.column === undefined ? 'weft_get_exact(json(f.payload), ?)' : `f.${f.column}`;
  return `(SELECT v FROM (SELECT ${read} AS v, f.created_at AS c, f.id AS i FROM feedback f
    WHERE f.project_id = calls.project_id AND f.call_id = calls.id${f.type === null ? '' : ' AND f.feedback_type = ?'})
    WHERE v IS NOT NULL ORDER BY c DESC, i DESC LIMIT 1)`;
}

/** The paths of the server-derived fields (`summary.status`, `summary.latency_ms`, `summary.weave.{status, latency_ms, trace_name}`). */
export const DERIVED_FIELDS: readonly string[] = Object.keys(DERIVED);

/**
 * A call's field path, resolved the same way on both engines (each engine's SQL of it: `fieldSql`, `pgField` in
 * pg-fields.ts): a feedback field, a plain column, a whole JSON column (read as its value), or a path inside a JSON
 * column (the segments after the column, whether one was quoted, and SQLite's JSON path of them).
 */
export type CallField = { kind: 'feedback'; feedback: FeedbackField } | { kind: 'plain'; column: string } | { kind: 'json'; column: string }
  | { kind: 'path'; column: string; rest: string[]; quoted: boolean; jsonPath: string };

/**
 * Resolves a field path that is not a derived field (see {@link fieldSql} for the forms).
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
 * Compiles a field path into SQL. Values never enter the SQL text: JSON paths are appended to `params`.
 *
 * Keys holding dots: a quoted segment is one key (`summary.usage."gpt-4.1".total_tokens`). An unquoted
 * path of two or more segments inside a JSON column is read as written first (`json_extract`); when that
 * finds nothing, its segments may be joined to match keys that contain dots (`weft_get`, see
 * `resolvePath`), so `summary.usage.gpt-4.1.total_tokens` works too.
 *
 * @param path - a feedback field (`feedback.[<type>].payload.<path>`, see feedback-fields.ts), a plain column (`op_name`), a JSON column (`inputs`: its JSON value, a string as the string), a dotted path inside a JSON column
 *   (`attributes.env.region`, `summary.usage.m.total_tokens`), or a derived field (`summary.status`, `summary.weave.trace_name`, ...).
 * @param params - positional parameters of the statement being built; appended to.
 * @param loc - location of the path in the request, for errors.
 * @returns a SQL expression over the `calls` table.
 * @throws QueryError for an unknown column or a malformed path.
 */
export function fieldSql(path: string, params: unknown[], loc: string[]): string {
  const derived = DERIVED[path];
  if (derived !== undefined) return derived;
  const f = parseCallField(path, loc);
  if (f.kind === 'feedback') return feedbackSql(f.feedback, params);
  if (f.kind === 'plain') return f.column;
  // a whole JSON column is its value, as one level down: a string output compares as the string, not its JSON text
  if (f.kind === 'json') return `json_extract(${f.column}, '$')`;
  const { column, rest, quoted } = f;
  params.push(f.jsonPath);
  const numeric = rest.some((seg) => /^\d+$/.test(seg));
  if (quoted && numeric) {
    // a numeric segment indexes an array and, on an object, names a key (as PostgreSQL's #> reads it)
    params.push(JSON.stringify(rest));
    return `COALESCE(json_extract(${column}, ?), weft_get_exact(${column}, ?))`;
  }
  if (quoted || (rest.length < 2 && !numeric)) return `json_extract(${column}, ?)`;
  params.push(JSON.stringify(rest));
  return `COALESCE(json_extract(${column}, ?), weft_get(${column}, ?))`;
}
