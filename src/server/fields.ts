/**
 * Maps a dotted field path of a call (`op_name`, `summary.usage.x.total_tokens`) to a parameterized SQL expression.
 * @module
 */

/** A query that names an unknown field or uses an unsupported form; the app answers 422 with `loc`. */
export class QueryError extends Error {
  override name = 'QueryError';
  /**
   * @param loc - where in the request body (without the leading `"body"`), e.g. `["sort_by", "0", "field"]`.
   * @param message - what was expected and what was received.
   * @param type - the `type` of the validation error item.
   */
  constructor(
    readonly loc: string[],
    message: string,
    readonly type = 'value_error',
  ) {
    super(message);
  }
}

/** Scalar columns that can be read, compared and sorted directly. */
const PLAIN_COLUMNS = new Set([
  'id', 'project_id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id',
  'started_at', 'ended_at', 'svc_user_id', 'svc_run_id', 'svc_run_step',
]);

/** Columns holding JSON text; a dotted path reads inside them with `json_extract`. */
const JSON_COLUMNS = new Set(['attributes', 'inputs', 'output', 'exception', 'summary']);

/** SQL of `summary.status`, the same rule as `deriveStatus` in records.ts. */
const STATUS_SQL = `(CASE WHEN ended_at IS NULL THEN 'running'
  WHEN exception IS NOT NULL THEN 'error'
  WHEN COALESCE(json_extract(summary, '$.status_counts.error'), 0) > 0 THEN 'descendant_error'
  ELSE 'success' END)`;

/** SQL of `summary.latency_ms`: milliseconds between started_at and ended_at, NULL while running. */
const LATENCY_SQL = `(CASE WHEN ended_at IS NULL THEN NULL
  ELSE CAST(ROUND((julianday(ended_at) - julianday(started_at)) * 86400000) AS INTEGER) END)`;

/** Server-derived fields that exist only in records, computed in SQL. */
const DERIVED: Record<string, string> = {
  'summary.status': STATUS_SQL,
  'summary.latency_ms': LATENCY_SQL,
};

/** Builds a SQLite JSON path (`$."a"[0]."b"`) from dotted parts; numeric parts index arrays. */
function jsonPath(parts: string[], loc: string[]): string {
  return '$' + parts.map((p) => {
    if (p === '' || p.includes('"')) throw new QueryError(loc, `invalid path segment ${JSON.stringify(p)}`);
    return /^\d+$/.test(p) ? `[${p}]` : `."${p}"`;
  }).join('');
}

/**
 * Compiles a field path into SQL. Values never enter the SQL text: a JSON path is appended to `params`.
 *
 * @param path - a plain column (`op_name`), a JSON column (`inputs`), a dotted path inside a JSON column
 *   (`attributes.env.region`, `summary.usage.m.total_tokens`), or `summary.status` / `summary.latency_ms`.
 * @param params - positional parameters of the statement being built; appended to.
 * @param loc - location of the path in the request, for errors.
 * @returns a SQL expression over the `calls` table.
 * @throws QueryError for an unknown column or a malformed path.
 */
export function fieldSql(path: string, params: unknown[], loc: string[]): string {
  const derived = DERIVED[path];
  if (derived !== undefined) return derived;
  const [column = '', ...rest] = path.split('.');
  if (rest.length === 0 && (PLAIN_COLUMNS.has(column) || JSON_COLUMNS.has(column))) return column;
  if (!JSON_COLUMNS.has(column)) {
    const known = [...PLAIN_COLUMNS, ...JSON_COLUMNS].join(', ');
    throw new QueryError(loc, `unknown field ${JSON.stringify(path)}; expected one of ${known}, or a dotted path inside a JSON column`);
  }
  params.push(jsonPath(rest, loc));
  return `json_extract(${column}, ?)`;
}
