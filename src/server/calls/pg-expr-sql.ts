/**
 * Compiles a `$expr` query (schema/query.ts) into a parameterized PostgreSQL boolean expression with the SQLite
 * store's semantics (the twin of expr-sql.ts): values are jsonb compared by the `weft_*` functions of
 * db/pg-migrations.ts (NULL < numbers < text, booleans as 1/0, text by code point).
 * @module
 */
import type { Operand, Operation } from '../../schema/query.js';
import { QueryError } from '../db/query-error.js';
import { type PgParams, pgField } from './pg-fields.js';
import { epochColumn, missingAsEmpty } from './query-rules.js';

/** A compiled operand: jsonb SQL, plus what the index-friendly equality needs to know. */
interface Compiled {
  sql: string;
  textColumn?: string;
  textLiteral?: string;
}

/** Binds a literal as the SQLite store binds it: booleans 1/0, objects and arrays as their JSON text. */
function literal(value: unknown, params: PgParams): Compiled {
  if (value === null || value === undefined) return { sql: 'NULL::jsonb' };
  if (typeof value === 'boolean') return { sql: value ? `'1'::jsonb` : `'0'::jsonb` };
  if (typeof value === 'number') return { sql: `${params.add(JSON.stringify(value))}::jsonb` };
  if (typeof value === 'string') {
    const p = params.add(value);
    return { sql: `to_jsonb(${p}::text)`, textLiteral: p };
  }
  return { sql: `to_jsonb(${params.add(JSON.stringify(value))}::text)` };
}

/** `$convert` targets, as the SQLite store's (expr-sql.ts): int and double of text that is no number are NULL (weft_numj). */
const CONVERT: Record<string, (sql: string) => string> = {
  double: (s) => `weft_dbl(weft_numj(${s}))`,
  int: (s) => `to_jsonb(trunc(weft_real(weft_numj(${s}))))`,
  string: (s) => `to_jsonb(weft_text(${s}))`,
  bool: (s) => `weft_bool(${s})`,
  exists: (s) => `weft_b2j(${s} IS NOT NULL)`,
};

/** A timestamp column (normalized ISO 8601 UTC text) as epoch seconds, milliseconds included (exact numeric). */
const epochSql = (column: string): string => `to_jsonb(extract(epoch FROM calls.${column}::timestamptz))`;

/** Compiles an operand; `others` are what it is compared with (a timestamp compared with numbers reads as epoch seconds). */
function operand(o: Operand, params: PgParams, loc: string[], others: readonly Operand[] = []): Compiled {
  if ('$literal' in o) return literal(o.$literal, params);
  const epoch = epochColumn(o, others);
  if (epoch !== undefined) return { sql: epochSql(epoch) };
  if ('$getField' in o) {
    const f = pgField(o.$getField, params, [...loc, '$getField']);
    if (missingAsEmpty(o, others)) return { sql: `COALESCE(${f.value}, to_jsonb(''::text))` };
    return { sql: f.value, textColumn: f.textColumn };
  }
  if ('$convert' in o) {
    const inner = operand(o.$convert.input, params, [...loc, '$convert', 'input']);
    const convert = CONVERT[o.$convert.to];
    if (!convert) throw new QueryError([...loc, '$convert', 'to'], `unsupported conversion ${o.$convert.to}`);
    return { sql: convert(inner.sql) };
  }
  return { sql: `weft_b2j(${operation(o, params, loc)})` };
}

/** An operand in a boolean position (AND, OR, NOT): an operation as is, a value by SQLite's truthiness. */
function condition(o: Operand, params: PgParams, loc: string[]): string {
  if ('$literal' in o || '$getField' in o || '$convert' in o) return `weft_truthy(${operand(o, params, loc).sql})`;
  return `(${operation(o, params, loc)})`;
}

function balanced(items: Operand[], joiner: string, empty: string, params: PgParams, loc: string[]): string {
  if (items.length === 0) return empty;
  const parts = items.map((x, i) => condition(x, params, [...loc, String(i)]));
  const join = (lo: number, hi: number): string => {
    if (hi - lo <= 2) return parts.slice(lo, hi).join(joiner);
    const mid = (lo + hi) >>> 1;
    return `(${join(lo, mid)})${joiner}(${join(mid, hi)})`;
  };
  return join(0, parts.length);
}

const COMPARE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * Compiles one operation to a PostgreSQL boolean (NULL counts as false in WHERE, as in SQLite). `$eq` is NULL-safe;
 * an empty `$and` is true, an empty `$or` or `$in` false; `$contains` is a substring test on the text of `input` (a missing input is ''),
 * with `case_insensitive` on `weft_fold`ed text. Every value is a parameter.
 *
 * @throws QueryError for an unknown field or conversion (the same as `operation` in expr-sql.ts).
 */
export function pgOperation(op: Operation, params: PgParams, loc: string[]): string {
  return operation(op, params, loc);
}

function operation(op: Operation, params: PgParams, loc: string[]): string {
  if ('$and' in op) return balanced(op.$and, ' AND ', 'true', params, [...loc, '$and']);
  if ('$or' in op) return balanced(op.$or, ' OR ', 'false', params, [...loc, '$or']);
  if ('$not' in op) return `NOT ${condition(op.$not[0], params, [...loc, '$not', '0'])}`;
  if ('$eq' in op) {
    const [a, b] = op.$eq;
    const left = operand(a, params, [...loc, '$eq', '0'], [b]);
    const right = operand(b, params, [...loc, '$eq', '1'], [a]);
    // a text column against a text literal: plain text equality, which an index can serve
    if (left.textColumn && right.textLiteral) return `${left.textColumn} IS NOT DISTINCT FROM ${right.textLiteral}::text`;
    if (right.textColumn && left.textLiteral) return `${right.textColumn} IS NOT DISTINCT FROM ${left.textLiteral}::text`;
    return `weft_is(${left.sql}, ${right.sql})`;
  }
  for (const key of Object.keys(COMPARE) as (keyof typeof COMPARE)[]) {
    if (key in op) {
      const [a, b] = (op as Record<typeof key, [Operand, Operand]>)[key];
      const left = operand(a, params, [...loc, key, '0'], [b]).sql;
      return `weft_cmp(${left}, ${operand(b, params, [...loc, key, '1'], [a]).sql}) ${COMPARE[key]} 0`;
    }
  }
  if ('$in' in op) {
    const [needle, hay] = op.$in;
    if (hay.length === 0) return 'false';
    const left = operand(needle, params, [...loc, '$in', '0'], hay).sql;
    return `(${hay.map((h, i) => `weft_cmp(${left}, ${operand(h, params, [...loc, '$in', '1', String(i)]).sql}) = 0`).join(' OR ')})`;
  }
  if ('$contains' in op) {
    const c = op.$contains;
    const input = `COALESCE(weft_text(${operand(c.input, params, [...loc, '$contains', 'input']).sql}), '')`;
    const substr = `weft_text(${operand(c.substr, params, [...loc, '$contains', 'substr']).sql})`;
    return c.case_insensitive ? `strpos(weft_fold(${input}), weft_fold(${substr})) > 0` : `strpos(${input}, ${substr}) > 0`;
  }
  throw new QueryError(loc, 'unsupported operation');
}
