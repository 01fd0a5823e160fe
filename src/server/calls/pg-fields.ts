/**
 * Maps a dotted field path of a call to PostgreSQL SQL (the PostgreSQL twin of fields.ts): a value in the SQLite
 * store's semantics (jsonb, see the `weft_*` functions of db/pg-sql-functions.ts) and the keys to sort it by.
 * @module
 */
import { INT_COLUMNS, parseCallField } from './fields.js';
import { PG_DESCENDANT_FAILED_SQL } from './descendant-errors.js';
import type { Params } from './query-walk.js';
import { pgValueSortKeys } from '../db/value-sort.js';

/** Positional parameters of a statement being built: `bind` binds a value and returns its `$n`. */
export class PgParams implements Params {
  readonly values: unknown[] = [];

  /** Binds `value`; the same placeholder may be used several times. */
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A compiled field. */
export interface PgField {
  /** jsonb (or NULL) holding the value as the SQLite store compares it: numbers, booleans as 1/0, text. */
  value: string;
  /** Plain text column (for the index-friendly `=` on a text literal); undefined otherwise. */
  textColumn?: string;
  /** SQL expressions to ORDER BY, in order, for an ascending sort (`desc` flips each). */
  sort(desc: boolean): string[];
}

/** SQL of `summary.status`: the same rule as `deriveStatus` in schema/call-status.ts. */
const STATUS_SQL = `(CASE WHEN calls.ended_at IS NULL THEN 'running'
  WHEN calls.exception IS NOT NULL THEN 'error'
  WHEN weft_jv(weft_nonul(calls.summary) -> 'cancelled') IN ('true'::jsonb, '1'::jsonb) THEN 'cancelled'
  WHEN weft_cmp(COALESCE(weft_jv(weft_nonul(calls.summary) #> '{status_counts,error}'), '0'::jsonb), '0'::jsonb) > 0 THEN 'descendant_error'
  WHEN ${PG_DESCENDANT_FAILED_SQL} THEN 'descendant_error'
  ELSE 'success' END)`;

/** SQL of `summary.latency_ms`: milliseconds between started_at and ended_at, NULL while running. */
const LATENCY_SQL = `(CASE WHEN calls.ended_at IS NULL THEN NULL
  ELSE round(extract(epoch FROM (calls.ended_at::timestamptz - calls.started_at::timestamptz)) * 1000)::bigint END)`;

/** Sort keys of a column: nulls last in both directions (Weave's order; the SQLite store's too, query-sql.ts). */
const nullsSort = (sql: string) => (desc: boolean) => [`${sql} ${desc ? 'DESC' : 'ASC'} NULLS LAST`];

/**
 * Sort keys of a jsonb value as the SQLite store sorts one (query-sql.ts): present values first, then numbers (numeric
 * text included) by value, then the rest by text in code point order, nulls last in both directions.
 */
function valueSort(value: string): (desc: boolean) => string[] {
  return (desc) => pgValueSortKeys(value, desc);
}

/** SQL of `summary.weave.trace_name`: a non-empty display name, else the op's short name (weave-summary.ts `traceName`). */
const TRACE_NAME_SQL = `COALESCE(NULLIF(calls.display_name, ''),
  (regexp_match(calls.op_name, '^(weave|svc):///[^/]+/[^/]+/(op|object)/([^/:]+):'))[3], calls.op_name)`;

const derived = (sql: string): PgField => ({ value: `to_jsonb(${sql})`, sort: nullsSort(sql) });

/** Server-derived fields that exist only in records, computed in SQL; `summary.weave.*` are Weave's names of them. */
const DERIVED: Record<string, PgField> = {
  'summary.status': derived(STATUS_SQL),
  'summary.latency_ms': derived(LATENCY_SQL),
  'summary.weave.status': derived(STATUS_SQL),
  'summary.weave.latency_ms': derived(LATENCY_SQL),
  'summary.weave.trace_name': { ...derived(TRACE_NAME_SQL), sort: (desc) => [`${TRACE_NAME_SQL} COLLATE "C" ${desc ? 'DESC' : 'ASC'} NULLS LAST`] },
};

/**
 * Compiles a field path into PostgreSQL SQL. Paths resolve as in `fieldSql` (fields.ts): a quoted segment is one
 * key; an unquoted path of two or more segments is read as written first, then with segments joined to match keys
 * holding dots (`weft_get`). Values never enter the SQL text.
 *
 * @param path - as for `fieldSql`.
 * @param params - the statement's parameters; appended to.
 * @param loc - location of the path in the request, for errors.
 * @throws QueryError for an unknown column or a malformed path (the same errors as `fieldSql`).
 */
export function pgField(path: string, params: Params, loc: string[]): PgField {
  const derived = DERIVED[path];
  if (derived !== undefined) return derived;
  const f = parseCallField(path, loc);
  if (f.kind === 'feedback') {
    // the newest feedback (of the type, or any) holding the path, as fields.ts reads it
    const { feedback } = f;
    const read = feedback.column === undefined ? `weft_jv(weft_get_exact(weft_nonul(f.payload), ${params.bind(feedback.segments)}::text[]))` : `to_jsonb(f.${feedback.column})`;
    const type = feedback.type === null ? '' : ` AND f.feedback_type = ${params.bind(feedback.type)}`;
    const value = `(SELECT v FROM (SELECT ${read} AS v, f.created_at AS c, f.id AS i FROM feedback f
      WHERE f.project_id = calls.project_id AND f.call_id = calls.id${type}) x WHERE v IS NOT NULL ORDER BY c DESC, i DESC LIMIT 1)`;
    return { value, sort: valueSort(value) };
  }
  if (f.kind === 'plain') {
    const sql = `calls.${f.column}`;
    return { value: `to_jsonb(${sql})`, textColumn: INT_COLUMNS.has(f.column) ? undefined : sql, sort: nullsSort(sql) };
  }
  if (f.kind === 'json') {
    // a whole JSON column is its value, as one level down (fields.ts)
    const value = `weft_jv(weft_nonul(calls.${f.column}))`;
    return { value, sort: valueSort(value) };
  }
  const { column, rest, quoted } = f;
  // PostgreSQL's JSON operators fail on a document holding a \u0000 escape: weft_nonul reads it with \u0001 in its place
  const doc = `weft_nonul(calls.${column})`;
  // #> reads a signed or space-led number ("-1": from the end) as an array index; SQLite's paths read it as a key only
  if (rest.some((seg) => !/^\d+$/.test(seg) && /^\s*[+-]?\d+$/.test(seg))) {
    const value = `weft_jv(${quoted ? 'weft_get_exact' : 'weft_get'}(${doc}, ${params.bind(rest)}::text[]))`;
    return { value, sort: valueSort(value) };
  }
  const direct = `weft_jv(${doc} #> ${params.bind(rest)}::text[])`;
  const value = quoted || (rest.length < 2 && !/^\d+$/.test(rest[0]!)) ? direct : `COALESCE(${direct}, weft_jv(weft_get(${doc}, ${params.bind(rest)}::text[])))`;
  return { value, sort: valueSort(value) };
}
