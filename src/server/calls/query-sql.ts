/**
 * Compiles a `/calls/stream_query` request (filter, $expr query, sort_by, limit, offset) into parameterized SQL.
 * @module
 */
import type { z } from 'zod';
import type { CallsQueryReq } from '../../schema/calls.js';
import { operation } from './expr-sql.js';
import { DERIVED_FIELDS, fieldSql, JSON_COLUMNS } from './fields.js';
import { opNamesCondition, sortKind } from './query-rules.js';
import { CALL_COLUMNS } from './records.js';
import { STORAGE_SIZE_SQL, TOTAL_STORAGE_SIZE_SQL } from './storage-size.js';

/** A validated stream-query body (the zod output of `CallsQueryReq`). */
export type CallsQuery = z.output<typeof CallsQueryReq>;

/** SQL for the matching rows in order, without LIMIT/OFFSET, plus the paging the request asked for. */
export interface CompiledCallsQuery {
  /** `SELECT <record columns> [, storage sizes] FROM calls WHERE ... ORDER BY ...`. */
  sql: string;
  /** Positional parameters of `sql`, in order. */
  params: unknown[];
  /** Rows to return at most; null means all. */
  limit: number | null;
  /** Rows to skip first; 0 when absent. */
  offset: number;
}

type Filter = NonNullable<CallsQuery['filter']>;

/** CallsFilter list fields that match a column exactly. */
export const LIST_FILTERS: [keyof Filter, string][] = [
  ['call_ids', 'id'],
  ['op_names', 'op_name'],
  ['parent_ids', 'parent_id'],
  ['thread_ids', 'thread_id'],
  ['trace_ids', 'trace_id'],
  ['turn_ids', 'turn_id'],
  ['svc_run_ids', 'svc_run_id'],
  ['svc_user_ids', 'svc_user_id'],
];

/** CallsFilter fields that match calls holding a ref in their inputs or output. */
export const REF_FILTERS: [keyof Filter, 'input' | 'output'][] = [
  ['input_refs', 'input'],
  ['output_refs', 'output'],
];

/** A list is bound as one JSON parameter, so the SQL text (and its cached statement) does not depend on its length. */
const IN_LIST = 'IN (SELECT value FROM json_each(?))';

function filterClauses(filter: Filter, where: string[], params: unknown[]): void {
  for (const [key, column] of LIST_FILTERS) {
    const values = filter[key];
    if (!Array.isArray(values) || values.length === 0) continue;
    const bind = (v: string): string => (params.push(v), '?');
    const ops = key === 'op_names' ? opNamesCondition(values, 'op_name', bind, (names) => `op_name IN (SELECT value FROM json_each(${bind(JSON.stringify(names))}))`) : undefined;
    if (ops !== undefined) {
      where.push(ops);
      continue;
    }
    // One value is an equality, so the (project_id, <column>, started_at, id) index also gives the order.
    where.push(values.length === 1 ? `${column} = ?` : `${column} ${IN_LIST}`);
    params.push(values.length === 1 ? values[0] : JSON.stringify(values));
  }
  for (const [key, kind] of REF_FILTERS) {
    const values = filter[key];
    if (Array.isArray(values) && values.length > 0) {
      where.push(`EXISTS (SELECT 1 FROM call_refs r WHERE r.project_id = calls.project_id
        AND r.call_id = calls.id AND r.kind = '${kind}' AND r.ref ${IN_LIST})`);
      params.push(JSON.stringify(values));
    }
  }
  if (filter.trace_roots_only) where.push('parent_id IS NULL');
}

function orderBy(sortBy: CallsQuery['sort_by'], params: unknown[]): string {
  const items = sortBy ?? [{ field: 'started_at', order: 'asc' as const }];
  const terms = items.flatMap((s, i) => {
    const loc = ['sort_by', String(i), 'field'];
    const dir = s.order === 'desc' ? 'DESC' : 'ASC';
    const sql = fieldSql(s.field, params, loc);
    const kind = sortKind(s.field, JSON_COLUMNS, DERIVED_FIELDS);
    if (kind === 'plain') return [`${sql} ${dir}`];
    if (kind === 'nullable') return [`${sql} ${dir} NULLS LAST`];
    // a JSON value (each key reads it again, binding its path again): present first, numbers, then text; nulls last
    return [`${sql} IS NULL`, `weft_numq(${fieldSql(s.field, params, loc)}) ${dir} NULLS LAST`, `CAST(${fieldSql(s.field, params, loc)} AS TEXT) ${dir}`];
  });
  if (!items.some((s) => s.field === 'id')) terms.push('id ASC');
  return terms.join(', ');
}

/**
 * Compiles a query. Always scoped to `project_id` and to rows whose start has arrived. The default
 * order and single-value filters on op_names, trace_ids, parent_ids (and trace_roots_only) read an index
 * in order, so the first row streams without sorting the matches first.
 * Filter lists match any of their values; an empty or null list is no filter; an `op_names` entry `<ref>:*` matches
 * every version of the op (names starting `<ref>:`). The default order is
 * `started_at` asc then `id` asc; with `sort_by`, `id` asc breaks ties. Sorts place nulls last in both directions, and
 * a JSON value sorts numbers (numeric text too) before other values (Weave's order, `sortKind` in query-rules.ts).
 *
 * @param q - a validated request body.
 * @returns SQL and parameters; no request value is ever part of the SQL text.
 * @throws QueryError (→ 422) for an unknown sort or query field.
 * @see spec endpoint 3, "Stream-query calls"
 */
export function compileCallsQuery(q: CallsQuery): CompiledCallsQuery {
  const params: unknown[] = [q.project_id];
  const where = ['project_id = ?', 'started_at IS NOT NULL'];
  if (q.filter) filterClauses(q.filter, where, params);
  if (q.query) where.push(`(${operation(q.query.$expr, params, ['query', '$expr'])})`);
  const order = orderBy(q.sort_by, params);
  const select: string[] = [...CALL_COLUMNS];
  if (q.include_storage_size) select.push(STORAGE_SIZE_SQL);
  if (q.include_total_storage_size) select.push(TOTAL_STORAGE_SIZE_SQL);
  const sql = `SELECT ${select.join(', ')} FROM calls WHERE ${where.join(' AND ')} ORDER BY ${order}`;
  return { sql, params, limit: q.limit ?? null, offset: q.offset ?? 0 };
}
