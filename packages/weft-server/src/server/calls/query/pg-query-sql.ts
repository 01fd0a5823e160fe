/**
 * A `/calls/stream_query` request in PostgreSQL: the PostgreSQL leaves of the shared walker and field compiler
 * (query-walk.ts, fields.ts), with the SQLite store's semantics: values are jsonb compared by the `weft_*` functions
 * of db/pg-sql-functions.ts (NULL < numbers < text, booleans as 1/0, text by code point), and `compilePgCallsQuery`.
 * @module
 */
import type { Compiled } from './fields.js';
import { newParams } from '../../db/sql-params.js';
import { type CallsQuery, compileWith, type QueryLeaves } from './query-walk.js';
import { STORED_COLUMNS } from './records.js';
import { pgValueSortKeys } from '../../db/value-sort.js';

/** A compiled query: SQL (with LIMIT/OFFSET) and its parameters. */
export interface PgCompiledQuery {
  sql: string;
  params: unknown[];
  /**
   * The cursor's `cursor_tuple_fraction` when not PostgreSQL's default (0.1, a plan for the first rows): 1 for a read
   * by trace, call or parent ids, read whole (see {@link compilePgCallsQuery}).
   */
  tupleFraction?: number;
}

/** Filters naming ids: their matches are few, and read whole. */
const BY_IDS = ['trace_ids', 'call_ids', 'parent_ids'] as const;

/** PostgreSQL's leaves. */
export const PG_LEAVES: QueryLeaves = {
  params: () => newParams(true),
  column: (name) => `calls.${name}`,
  TRUE: 'true',
  FALSE: 'false',
  // as the SQLite store binds it: booleans 1/0, objects and arrays as their JSON text
  literal(value, params): Compiled {
    if (value === null || value === undefined) return { sql: 'NULL::jsonb' };
    if (typeof value === 'boolean') return { sql: value ? `'1'::jsonb` : `'0'::jsonb` };
    if (typeof value === 'number') return { sql: `${params.bind(JSON.stringify(value))}::jsonb` };
    const p = params.bind(typeof value === 'string' ? value : JSON.stringify(value));
    return { sql: `to_jsonb(${p}::text)`, textLiteral: typeof value === 'string' ? p : undefined };
  },
  scalar: (sql) => `to_jsonb(${sql})`,
  // JSON operators fail on a document holding a \u0000 escape: weft_nonul reads it with \u0001 in its place
  at: (doc, keys) => `weft_jv(weft_nonul(${doc})${keys.length === 0 ? '' : ` #> '{${keys.join(',')}}'`})`,
  path: (doc, f, params) => `weft_jv(weft_nonul(${doc}) #> ${params.bind(f.rest)}::text[])`,
  get: (doc, segments, params, exact) =>
    `weft_jv(${exact ? 'weft_get_exact' : 'weft_get'}(weft_nonul(${doc}), ${params.bind(segments)}::text[]))`,
  hashPath: true,
  // weft_cmp(a, n) op 0 written out (SQLite's order: a number or boolean by its number, text above any number, NULL
  // for NULL): the function is not inlined (it reads its arguments several times) and cost about 45 µs a row, most of
  // `summary.status`, so of the overview's live edges and of each rollup hour (issue 54)
  cmp: (a, op, n) => `(CASE jsonb_typeof(${a}) WHEN 'number' THEN (${a})::numeric ${op} ${n}
    WHEN 'boolean' THEN (CASE WHEN (${a}) = 'true' THEN 1 ELSE 0 END) ${op} ${n} WHEN 'string' THEN 1 ${op} 0 WHEN 'object' THEN 1 ${op} 0 WHEN 'array' THEN 1 ${op} 0 END)`,
  joinInOrder: 'JOIN',
  opShort: (n) => `COALESCE((regexp_match(${n}, '^(weave|svc):///[^/]+/[^/]+/(op|object)/([^/:]+):'))[3], ${n})`,
  payload: 'f.payload',
  boolText(doc, segments, params) {
    const at = `weft_get_exact(weft_nonul(${doc}), ${params.bind(segments)}::text[])`;
    return `(CASE json_typeof(${at}) WHEN 'boolean' THEN to_jsonb(${at}::text) END)`;
  },
  // a never-null column (id, started_at: the query keeps started_at IS NOT NULL) without NULLS LAST, which its index's
  // backward scan (DESC NULLS FIRST) could not give: newest first reads (project_id, started_at, id) backwards
  scalarSort: (sql, desc, kind) =>
    `${sql}${kind === 'text' ? ' COLLATE "C"' : ''} ${desc ? 'DESC' : 'ASC'}${kind === 'never-null' ? '' : ' NULLS LAST'}`,
  valueSort: (read, desc) => pgValueSortKeys(read(), desc),
  // normalized ISO 8601 UTC text as epoch seconds, milliseconds included (exact numeric)
  epoch: (timestamp) => `extract(epoch FROM ${timestamp}::timestamptz)`,
  // int and double of text that is no number are NULL (weft_numj), as on SQLite
  convert: {
    double: (s) => `weft_dbl(weft_numj(${s}))`,
    int: (s) => `to_jsonb(trunc(weft_real(weft_numj(${s}))))`,
    string: (s) => `to_jsonb(weft_text(${s}))`,
    bool: (s) => `weft_bool(${s})`,
    exists: (s) => `weft_b2j(${s} IS NOT NULL)`,
  },
  asValue: (condition) => ({ sql: `weft_b2j(${condition})` }),
  // SQLite's truthiness of a value
  truthy: (value) => `weft_truthy(${value.sql})`,
  compare(op, a, b) {
    if (op !== '=') return `weft_cmp(${a.c.sql}, ${b.c.sql}) ${op} 0`;
    // a text column against a text literal: plain text equality, which an index can serve
    if (a.c.textColumn && b.c.textLiteral) return `${a.c.textColumn} IS NOT DISTINCT FROM ${b.c.textLiteral}::text`;
    if (b.c.textColumn && a.c.textLiteral) return `${b.c.textColumn} IS NOT DISTINCT FROM ${a.c.textLiteral}::text`;
    return `weft_is(${a.c.sql}, ${b.c.sql})`;
  },
  inList: (needle, hay) => `(${hay.map((h) => `weft_cmp(${needle.c.sql}, ${h.c.sql}) = 0`).join(' OR ')})`,
  text: (value) => `weft_text(${value})`,
  contains: (text, substr) => `strpos(${text}, ${substr}) > 0`,
  inValues: (expr, values, params) => `${expr} = ANY(${params.bind(values)}::text[])`,
  rowBytes: (alias) => `(${STORED_COLUMNS.map((c) => `COALESCE(octet_length(${alias}.${c}::text), 0)`).join(' + ')})`,
};

/**
 * Compiles a query for PostgreSQL, `LIMIT` and `OFFSET` included: the same rows in the same order as
 * `compileCallsQuery` on SQLite.
 *
 * A filter by trace, call or parent ids is planned for all its rows (`tupleFraction` 1): an id is matched in its two
 * forms (`= ANY` of two values), and a cursor planned for its first tenth walked the project's `started_at` index
 * in order, filtering, to skip sorting the matches (the planner takes a trace's calls as spread over the project's
 * time, not as the few seconds they hold): 1.9 s for a 10,000-call trace in 1,000,000 calls, against a read of the
 * trace index and a sort of its rows.
 * @throws QueryError (→ 422) for an unknown sort or query field.
 */
export function compilePgCallsQuery(q: CallsQuery): PgCompiledQuery {
  const { sql, params, limit, offset } = compileWith(q, PG_LEAVES);
  const compiled: PgCompiledQuery = { sql: `${sql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, params: [...params, limit, offset] };
  if (BY_IDS.some((key) => (q.filter?.[key]?.length ?? 0) > 0)) compiled.tupleFraction = 1;
  return compiled;
}
