/**
 * Compiles a `/calls/stream_query` request into parameterized PostgreSQL SQL (the twin of query-sql.ts).
 * @module
 */
import { pgOperation } from './pg-expr-sql.js';
import { PgParams, pgField } from './pg-fields.js';
import { LIST_FILTERS, REF_FILTERS, type CallsQuery } from './query-sql.js';
import { opNamesCondition } from './query-rules.js';
import { CALL_COLUMNS } from './records.js';
import { STORED_COLUMNS } from './storage-size.js';

type Filter = NonNullable<CallsQuery['filter']>;

/** Bytes of a stored row: the UTF-8 length of each column's text (JSON as stored, integers as digits), as storage-size.ts counts. */
function rowBytesSql(alias: string): string {
  return `(${STORED_COLUMNS.map((c) => `COALESCE(octet_length(${alias}.${c}::text), 0)`).join(' + ')})`;
}

/** A compiled query: SQL (with LIMIT/OFFSET) and its parameters. */
export interface PgCompiledQuery {
  sql: string;
  params: unknown[];
}

function filterClauses(filter: Filter, where: string[], params: PgParams): void {
  for (const [key, column] of LIST_FILTERS) {
    const values = filter[key];
    if (!Array.isArray(values) || values.length === 0) continue;
    const bind = (v: unknown): string => params.add(v);
    const ops = key === 'op_names' ? opNamesCondition(values, 'calls.op_name', bind, (names) => `calls.op_name = ANY(${bind(names)}::text[])`) : undefined;
    if (ops !== undefined) {
      where.push(ops);
      continue;
    }
    where.push(values.length === 1 ? `calls.${column} = ${params.add(values[0])}` : `calls.${column} = ANY(${params.add(values)}::text[])`);
  }
  for (const [key, kind] of REF_FILTERS) {
    const values = filter[key];
    if (Array.isArray(values) && values.length > 0) {
      where.push(`EXISTS (SELECT 1 FROM call_refs r WHERE r.project_id = calls.project_id
        AND r.call_id = calls.id AND r.kind = '${kind}' AND r.ref = ANY(${params.add(values)}::text[]))`);
    }
  }
  if (filter.trace_roots_only) where.push('calls.parent_id IS NULL');
}

function orderBy(sortBy: CallsQuery['sort_by'], params: PgParams): string {
  const items = sortBy ?? [{ field: 'started_at', order: 'asc' as const }];
  // a field sorted on again changes no order (rows it would order are already equal on it): each JSON path key is
  // re-read from the document by PostgreSQL, so 32 copies of one path over large inputs cost 32 times the reads
  const seen = new Set<string>();
  const terms = items.flatMap((s, i) => {
    if (seen.has(s.field)) return []; // checked at its first place; binding its path again would leave an unused parameter
    seen.add(s.field);
    return pgField(s.field, params, ['sort_by', String(i), 'field']).sort(s.order === 'desc');
  });
  if (!items.some((s) => s.field === 'id')) terms.push('calls.id ASC');
  return terms.join(', ');
}

/**
 * Compiles a query: scoped to `project_id` and to rows whose start has arrived; filters, `$expr`, `sort_by`
 * (default `started_at` then `id`, ascending; `id` breaks ties), `limit`/`offset`, and the storage sizes asked for.
 * The same rows in the same order as `compileCallsQuery` on SQLite.
 *
 * @throws QueryError (→ 422) for an unknown sort or query field.
 */
export function compilePgCallsQuery(q: CallsQuery): PgCompiledQuery {
  const params = new PgParams();
  const where = [`calls.project_id = ${params.add(q.project_id)}`, 'calls.started_at IS NOT NULL'];
  if (q.filter) filterClauses(q.filter, where, params);
  if (q.query) where.push(`(${pgOperation(q.query.$expr, params, ['query', '$expr'])})`);
  const order = orderBy(q.sort_by, params);
  const select: string[] = CALL_COLUMNS.map((c) => `calls.${c}`);
  if (q.include_storage_size) select.push(`${rowBytesSql('calls')} AS storage_size_bytes`);
  if (q.include_total_storage_size) {
    select.push(`(SELECT sum(${rowBytesSql('t')}) FROM calls t WHERE t.project_id = calls.project_id AND t.trace_id = calls.trace_id) AS total_storage_size_bytes`);
  }
  const limit = q.limit ?? null;
  const sql = `SELECT ${select.join(', ')} FROM calls WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${params.add(limit)} OFFSET ${params.add(q.offset ?? 0)}`;
  return { sql, params: params.values };
}
