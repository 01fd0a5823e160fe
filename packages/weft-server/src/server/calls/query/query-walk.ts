/**
 * The one walker of a `/calls/stream_query` request, for both engines: it compiles the `$expr` tree (schema/query.ts),
 * the filters and `sort_by` into parameterized SQL (fields and their sort keys through `compileField`, fields.ts), and
 * asks the engine's {@link QueryLeaves} (query-sql.ts for SQLite, pg-query-sql.ts for PostgreSQL) for the SQL of each
 * leaf: field access, literal, comparison, conversion, contains and list binding. Values are always bound as
 * parameters, in the order their placeholders appear.
 * @module
 */
import type { z } from 'zod';
import type { CallsQueryReq } from 'weft-trace/wire';
import type { Operand, Operation } from 'weft-trace/wire';
import { QueryError } from '../../db/query-error.js';
import { type Compiled, compileField, type FieldLeaves } from './fields.js';
import type { Params } from '../../db/sql-params.js';
import { epochColumn, missingAsEmpty, opNamesCondition, runIdForms, statusByColumns } from './query-rules.js';
import { CALL_COLUMNS } from './records.js';
import { unreadColumns } from './columns.js';
import { ancestorClause } from './ancestor-filter.js';

/** A validated stream-query body (the zod output of `CallsQueryReq`). */
export type CallsQuery = z.output<typeof CallsQueryReq>;
type Filter = NonNullable<CallsQuery['filter']>;

/** An operand and its compiled SQL. */
export interface Side {
  o: Operand;
  c: Compiled;
}

/** The comparison operators of `$expr`, and their SQL (`=` is `$eq`: NULL-safe, each engine its way). */
const COMPARE = { $eq: '=', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
export type CompareOp = (typeof COMPARE)[keyof typeof COMPARE];

/** An engine's SQL for each leaf of a query (its fields' leaves too: fields.ts). */
export interface QueryLeaves extends FieldLeaves {
  /** Parameters of a new statement. */
  params(): Params;
  /**
   * What follows `FROM calls` when `trace_ids` filters, else when `parent_ids` does (SQLite: `INDEXED BY calls_trace`,
   * `INDEXED BY calls_parent`: without table statistics its planner walked the project's `started_at` index to skip a
   * sort, 3 s for a 10,000-call trace among 1,000,000 calls, and the whole project for a call's children).
   */
  readonly byTrace?: string;
  /**
   * What follows `FROM calls` when `call_ids` filters and `trace_ids` does not (SQLite: `INDEXED BY` the primary key
   * `(project_id, id)`: its planner walked the project's `started_at` index testing each row, 1-3 s for one call among
   * 1,000,000).
   */
  readonly byIds?: string;
  /** What follows `FROM calls` when `parent_ids` filters and neither `trace_ids` nor `call_ids` does (SQLite: `INDEXED BY calls_parent`). */
  readonly byParent?: string;
  /** SQL true (an empty `$and`). */
  readonly TRUE: string;
  /** `$convert` targets by name. */
  readonly convert: Readonly<Record<string, (sql: string) => string>>;
  /** An operation's boolean SQL used as a value. */
  asValue(condition: string): Compiled;
  /** A value used as a condition (AND, OR, NOT). */
  truthy(value: Compiled): string;
  compare(op: CompareOp, a: Side, b: Side): string;
  /** `$in` with a non-empty list. */
  inList(needle: Side, hay: readonly Side[]): string;
  /** A value's text (SQLite's `CAST(x AS TEXT)`). */
  text(value: string): string;
  /** `text` holds `substr` (both text; the caller folds case with `weft_fold`). */
  contains(text: string, substr: string): string;
  /** `expr` matches one of `values` (bound as one parameter). */
  inValues(expr: string, values: readonly string[], params: Params): string;
  /** Bytes of the stored row of `calls` named `alias`: the UTF-8 length of each stored column's text (NULL 0). */
  rowBytes(alias: string): string;
}

/** CallsFilter list fields that match a column exactly. */
export const LIST_FILTERS: [keyof Filter, string][] = [
  ['call_ids', 'id'], ['op_names', 'op_name'], ['parent_ids', 'parent_id'], ['thread_ids', 'thread_id'], ['trace_ids', 'trace_id'],
  ['turn_ids', 'turn_id'], ['svc_run_ids', 'svc_run_id'], ['svc_user_ids', 'svc_user_id'],
];

/** CallsFilter fields that match calls holding a ref in their inputs or output. */
export const REF_FILTERS: [keyof Filter, 'input' | 'output'][] = [['input_refs', 'input'], ['output_refs', 'output']];

/** Compiles `$expr` trees with one engine's leaves. */
class ExprWalker {
  constructor(private readonly leaves: QueryLeaves, private readonly params: Params) {}

  /** Compiles an operand; `others` are what it is compared with (a timestamp compared with numbers reads as epoch seconds). */
  operand(o: Operand, loc: string[], others: readonly Operand[] = []): Compiled {
    if ('$literal' in o) return this.leaves.literal(o.$literal, this.params);
    const epoch = epochColumn(o, others);
    if (epoch !== undefined) return { sql: this.leaves.scalar(this.leaves.epoch(this.leaves.column(epoch))) };
    if ('$getField' in o) {
      // compared with a string, a feedback payload's boolean is the text true / false (Weave's JSON_VALUE)
      const withText = others.some((x) => '$literal' in x && typeof x.$literal === 'string');
      const f = compileField(o.$getField, this.params, [...loc, '$getField'], this.leaves, withText);
      // Weave's rule: a missing value reads as '' (`missingAsEmpty`)
      return missingAsEmpty(o, others) ? { sql: `COALESCE(${f.sql}, ${this.leaves.literal('', this.params).sql})` } : f;
    }
    if ('$convert' in o) {
      const inner = this.operand(o.$convert.input, [...loc, '$convert', 'input']);
      const convert = this.leaves.convert[o.$convert.to];
      if (!convert) throw new QueryError([...loc, '$convert', 'to'], `unsupported conversion ${o.$convert.to}`);
      return { sql: convert(inner.sql) };
    }
    return this.leaves.asValue(this.operation(o, loc));
  }

  /** An operand in a boolean position: an operation as is, a value by the engine's truthiness. */
  condition(o: Operand, loc: string[]): string {
    if ('$literal' in o || '$getField' in o || '$convert' in o) return this.leaves.truthy(this.operand(o, loc));
    return `(${this.operation(o, loc)})`;
  }

  /**
   * Joins terms with `AND` / `OR` as a balanced tree of parentheses, so the expression tree grows with the log of the
   * term count, not the count (SQLite refuses trees deeper than 1000).
   */
  balanced(items: readonly Operand[], joiner: string, empty: string, loc: string[]): string {
    if (items.length === 0) return empty;
    const parts = items.map((x, i) => this.condition(x, [...loc, String(i)]));
    const join = (lo: number, hi: number): string => {
      if (hi - lo <= 2) return parts.slice(lo, hi).join(joiner);
      const mid = (lo + hi) >>> 1;
      return `(${join(lo, mid)})${joiner}(${join(mid, hi)})`;
    };
    return join(0, parts.length);
  }

  /**
   * Compiles one operation to a boolean. `$eq` is NULL-safe; an empty `$and` is true, an empty `$or` or `$in` false;
   * `$contains` is a substring test on the text of `input` (a missing input is ''), case-folded with `case_insensitive`.
   * @throws QueryError for an unknown field or conversion.
   */
  operation(op: Operation, loc: string[]): string {
    if ('$and' in op) return this.balanced(op.$and, ' AND ', this.leaves.TRUE, [...loc, '$and']);
    if ('$or' in op) return this.balanced(op.$or, ' OR ', this.leaves.FALSE, [...loc, '$or']);
    if ('$not' in op) return `NOT ${this.condition(op.$not[0], [...loc, '$not', '0'])}`;
    for (const [key, sql] of Object.entries(COMPARE) as [keyof typeof COMPARE, CompareOp][]) {
      if (key in op) {
        const [a, b] = (op as Record<typeof key, [Operand, Operand]>)[key];
        const byColumns = key === '$eq' ? statusByColumns(a, b, (name) => this.leaves.column(name)) : undefined;
        if (byColumns !== undefined) return byColumns;
        const left = { o: a, c: this.operand(a, [...loc, key, '0'], [b]) };
        return this.leaves.compare(sql, left, { o: b, c: this.operand(b, [...loc, key, '1'], [a]) });
      }
    }
    if ('$in' in op) {
      const [needle, hay] = op.$in;
      if (hay.length === 0) return this.leaves.FALSE;
      const left = { o: needle, c: this.operand(needle, [...loc, '$in', '0'], hay) };
      return this.leaves.inList(left, hay.map((h, i) => ({ o: h, c: this.operand(h, [...loc, '$in', '1', String(i)], [needle]) })));
    }
    if ('$contains' in op) {
      const c = op.$contains;
      const text = (o: Operand, k: string): string => this.leaves.text(this.operand(o, [...loc, '$contains', k]).sql);
      // a missing input is the empty string, as Weave's JSON_VALUE reads it: it contains ''
      const [i, s] = [`COALESCE(${text(c.input, 'input')}, '')`, text(c.substr, 'substr')];
      const fold = (t: string): string => (c.case_insensitive === true ? `weft_fold(${t})` : t);
      return this.leaves.contains(fold(i), fold(s));
    }
    throw new QueryError(loc, 'unsupported operation');
  }
}

function filterClauses(filter: Filter, projectId: string, where: string[], params: Params, leaves: QueryLeaves): void {
  for (const [key, name] of LIST_FILTERS) {
    const listed = filter[key];
    const values = key === 'svc_run_ids' && Array.isArray(listed) ? runIdForms(listed, projectId) : listed;
    if (!Array.isArray(values) || values.length === 0) continue;
    const column = leaves.column(name);
    const ops = key === 'op_names' ? opNamesCondition(values, column, params, (names) => leaves.inValues(column, names, params)) : undefined;
    // one value is an equality, so the (project_id, <column>, started_at, id) index also gives the order
    where.push(ops ?? (values.length === 1 ? `${column} = ${params.bind(values[0])}` : leaves.inValues(column, values, params)));
  }
  for (const [key, kind] of REF_FILTERS) {
    const values = filter[key];
    if (Array.isArray(values) && values.length > 0) {
      where.push(`EXISTS (SELECT 1 FROM call_refs r WHERE r.project_id = calls.project_id
        AND r.call_id = calls.id AND r.kind = '${kind}' AND ${leaves.inValues('r.ref', values, params)})`);
    }
  }
  if (filter.trace_roots_only) where.push(`${leaves.column('parent_id')} IS NULL`);
  const below = ancestorClause(filter.ancestor_ids, projectId, params, leaves);
  if (below !== undefined) where.push(below);
}

function orderBy(sortBy: CallsQuery['sort_by'], params: Params, leaves: QueryLeaves): string {
  const items = sortBy ?? [{ field: 'started_at', order: 'asc' as const }];
  // a field sorted on again changes no order (rows it would order are already equal on it), and each JSON path key
  // re-reads the document: only its first place counts
  const seen = new Set<string>();
  const terms = items.flatMap((s, i) => {
    if (seen.has(s.field)) return [];
    seen.add(s.field);
    return compileField(s.field, params, ['sort_by', String(i), 'field'], leaves).sort(s.order === 'desc');
  });
  if (!items.some((s) => s.field === 'id')) terms.push(`${leaves.column('id')} ASC`);
  return terms.join(', ');
}

/** SQL for the matching rows in order, without LIMIT/OFFSET, plus the paging the request asked for. */
export interface CompiledCallsQuery {
  /** `SELECT <record columns> [, storage sizes] FROM calls WHERE ... ORDER BY ...`. */
  sql: string;
  /** Parameters of `sql`, in order. */
  params: unknown[];
  /** Rows to return at most; null means all. */
  limit: number | null;
  /** Rows to skip first; 0 when absent. */
  offset: number;
}

/**
 * Compiles a query with one engine's leaves. Always scoped to `project_id` and to rows whose start has arrived. The JSON
 * columns the answer leaves out (`unreadColumns`: not in `columns` nor `expand_columns`) are selected as NULL.
 * Filter lists match any of their values; an empty or null list is no filter; an `op_names` entry `<ref>:*` matches
 * every version of the op; a bare `svc_run_ids` entry (no `/`) also matches `<project_id>/<entry>`. The default order is `started_at` asc then `id` asc; with `sort_by`, `id` asc breaks ties.
 *
 * @throws QueryError (→ 422) for an unknown sort or query field.
 * @see spec endpoint 3, "Stream-query calls"
 */
export function compileWith(q: CallsQuery, leaves: QueryLeaves): CompiledCallsQuery {
  const params = leaves.params();
  const where = [`${leaves.column('project_id')} = ${params.bind(q.project_id)}`, `${leaves.column('started_at')} IS NOT NULL`];
  if (q.filter) filterClauses(q.filter, q.project_id, where, params, leaves);
  if (q.query) where.push(`(${new ExprWalker(leaves, params).operation(q.query.$expr, ['query', '$expr'])})`);
  const order = orderBy(q.sort_by, params, leaves);
  // after the SQL above, so its errors come first; a JSON column the answer leaves out is not read (NULL)
  const unread = new Set(unreadColumns(q));
  const select = CALL_COLUMNS.map((c) => (unread.has(c) ? `NULL AS ${c}` : leaves.column(c)));
  if (q.include_storage_size) select.push(`${leaves.rowBytes('calls')} AS storage_size_bytes`);
  if (q.include_total_storage_size) {
    select.push(`(SELECT sum(${leaves.rowBytes('t')}) FROM calls t WHERE t.project_id = calls.project_id AND t.trace_id = calls.trace_id) AS total_storage_size_bytes`);
  }
  const listed = (key: 'trace_ids' | 'call_ids' | 'parent_ids'): boolean => (q.filter?.[key]?.length ?? 0) > 0;
  const index = listed('trace_ids') ? leaves.byTrace : listed('call_ids') ? leaves.byIds : listed('parent_ids') ? leaves.byParent : undefined;
  const hint = index !== undefined ? ` ${index}` : '';
  const sql = `SELECT ${select.join(', ')} FROM calls${hint} WHERE ${where.join(' AND ')} ORDER BY ${order}`;
  return { sql, params: params.values, limit: q.limit ?? null, offset: q.offset ?? 0 };
}
