/**
 * Compiles a `$expr` query (the grammar of schema/query.ts) into a parameterized SQLite boolean expression.
 * @module
 */
import type { Operand, Operation } from '../../schema/query.js';
import { fieldSql, PLAIN_COLUMNS } from './fields.js';
import { QueryError } from '../db/query-error.js';
import { epochColumn, missingAsEmpty } from './query-rules.js';

type Params = unknown[];

/** Binds a literal: booleans as 0/1, objects and arrays as JSON text, the rest as is. */
function literal(value: unknown, params: Params): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') params.push(value ? 1 : 0);
  else if (typeof value === 'number' || typeof value === 'string') params.push(value);
  else params.push(JSON.stringify(value));
  return '?';
}

/**
 * `$convert` targets. Each uses its input once, so the input's parameters are bound once.
 * `exists` is true when the value is present and not null; `bool` is `weft_bool`; `int` and `double` read numbers and
 * numeric text, anything else is null (`weft_numq`; see `db/sql-functions.ts`).
 */
const CONVERT: Record<string, (sql: string) => string> = {
  double: (s) => `CAST(weft_numq(${s}) AS REAL)`,
  int: (s) => `CAST(weft_numq(${s}) AS INTEGER)`,
  string: (s) => `CAST(${s} AS TEXT)`,
  bool: (s) => `weft_bool(${s})`,
  exists: (s) => `(${s} IS NOT NULL)`,
};

/** A timestamp column (normalized ISO 8601 UTC text) as epoch seconds, milliseconds included. */
const epochSql = (column: string): string => `unixepoch(${column}, 'subsec')`;

/** Compiles an operand; `others` are what it is compared with (a timestamp compared with numbers reads as epoch seconds). */
function operand(o: Operand, params: Params, loc: string[], others: readonly Operand[] = []): string {
  if ('$literal' in o) return literal(o.$literal, params);
  const epoch = epochColumn(o, others);
  if (epoch !== undefined) return epochSql(epoch);
  if ('$getField' in o) {
    const sql = fieldSql(o.$getField, params, [...loc, '$getField']);
    return missingAsEmpty(o, others) ? `COALESCE(${sql}, '')` : sql;
  }
  if ('$convert' in o) {
    const inner = operand(o.$convert.input, params, [...loc, '$convert', 'input']);
    const convert = CONVERT[o.$convert.to];
    if (!convert) throw new QueryError([...loc, '$convert', 'to'], `unsupported conversion ${o.$convert.to}`);
    return convert(inner);
  }
  return `(${operation(o, params, loc)})`;
}

/**
 * Joins terms with `AND` / `OR` as a balanced tree of parentheses, so SQLite's expression tree grows with
 * the log of the term count, not the count (it refuses trees deeper than 1000).
 */
function balanced(items: Operand[], joiner: string, empty: string, params: Params, loc: string[]): string {
  if (items.length === 0) return empty;
  const parts = items.map((x, i) => operand(x, params, [...loc, String(i)]));
  const join = (lo: number, hi: number): string => {
    if (hi - lo <= 2) return parts.slice(lo, hi).join(joiner);
    const mid = (lo + hi) >>> 1;
    return `(${join(lo, mid)})${joiner}(${join(mid, hi)})`;
  };
  return join(0, parts.length);
}

/**
 * True when `o` is a plain column and `other` a literal of the same storage class (text column and string, or
 * `svc_run_step` and number or boolean): SQLite's affinity changes nothing then, and the bare column keeps its index.
 */
function sameClass(o: Operand, other: Operand): boolean {
  if (!('$getField' in o) || !('$literal' in other)) return false;
  const path = o.$getField;
  const v = other.$literal;
  if (path === 'svc_run_step') return typeof v === 'number' || typeof v === 'boolean';
  return PLAIN_COLUMNS.has(path) && typeof v === 'string';
}

/**
 * An operand of a comparison with its column affinity removed (unary `+`): values compare by storage class, NULL <
 * numbers < text, as JSON values do and as the PostgreSQL store compares (weft_cmp). With affinity, SQLite converted
 * the other side first: a text column against a number literal compared as text with the number's REAL text
 * (`op_name = 10` against '10.0', never true), an INTEGER column or a `$convert` against text as numbers.
 */
function compared(o: Operand, other: Operand, params: Params, loc: string[]): string {
  const sql = operand(o, params, loc, [other]);
  return '$literal' in o || sameClass(o, other) ? sql : `+${sql}`;
}

const COMPARE = { $eq: 'IS', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * Compiles one operation. `$eq` is NULL-safe (`IS`); an empty `$and` is true, an empty `$or` or `$in`
 * list false; `$contains` is a substring test on the text of `input` (a missing input is ''); with `case_insensitive` both sides are
 * Unicode case-folded first (`weft_fold`). Every value is bound as a parameter, never written into the SQL.
 *
 * @param op - a validated operation.
 * @param params - positional parameters, appended to in SQL order.
 * @param loc - location of `op` in the request, for errors (e.g. `["query", "$expr"]`).
 * @returns SQL that is true (1) for matching rows.
 * @throws QueryError for an unknown field.
 */
export function operation(op: Operation, params: Params, loc: string[]): string {
  if ('$and' in op) return balanced(op.$and, ' AND ', '1', params, [...loc, '$and']);
  if ('$or' in op) return balanced(op.$or, ' OR ', '0', params, [...loc, '$or']);
  if ('$not' in op) return `NOT ${operand(op.$not[0], params, [...loc, '$not', '0'])}`;
  for (const key of Object.keys(COMPARE) as (keyof typeof COMPARE)[]) {
    if (key in op) {
      const [a, b] = (op as Record<typeof key, [Operand, Operand]>)[key];
      const left = compared(a, b, params, [...loc, key, '0']);
      return `${left} ${COMPARE[key]} ${compared(b, a, params, [...loc, key, '1'])}`;
    }
  }
  if ('$in' in op) {
    const [needle, hay] = op.$in;
    if (hay.length === 0) return '0';
    const sql = operand(needle, params, [...loc, '$in', '0'], hay);
    const left = '$literal' in needle || hay.every((h) => sameClass(needle, h)) ? sql : `+${sql}`;
    const items = hay.map((h, i) => compared(h, needle, params, [...loc, '$in', '1', String(i)]));
    return `${left} IN (${items.join(', ')})`;
  }
  if ('$contains' in op) {
    const c = op.$contains;
    // a missing field is the empty string, as Weave's JSON_VALUE reads it: it contains ''
    const input = `COALESCE(CAST(${operand(c.input, params, [...loc, '$contains', 'input'])} AS TEXT), '')`;
    const substr = `CAST(${operand(c.substr, params, [...loc, '$contains', 'substr'])} AS TEXT)`;
    return c.case_insensitive ? `instr(weft_fold(${input}), weft_fold(${substr})) > 0` : `instr(${input}, ${substr}) > 0`;
  }
  throw new QueryError(loc, 'unsupported operation');
}
