/**
 * `q`: a typed builder of stream_query `$expr` queries that produces exactly the wire grammar.
 * @module
 */
import type { Operand, Operation } from '../../schema/query.js';

/** Call columns holding JSON; dotted paths read inside them. */
export type JsonColumn = 'attributes' | 'inputs' | 'output' | 'exception' | 'summary';
/** Call columns holding one scalar. */
export type PlainColumn =
  | 'id' | 'project_id' | 'op_name' | 'display_name' | 'trace_id' | 'parent_id' | 'thread_id' | 'turn_id'
  | 'started_at' | 'ended_at' | 'svc_user_id' | 'svc_run_id' | 'svc_run_step';
/**
 * A field a query can read: a column, or a dotted path inside a JSON column (`summary.latency_ms`,
 * `attributes.env`, `summary.usage."gpt-4.1".total_tokens` with a quoted segment holding dots).
 */
export type CallField = PlainColumn | JsonColumn | `${JsonColumn}.${string}`;

/** A JS value written as `{$literal: value}` when passed where an operand is expected. */
export type Scalar = string | number | boolean | null;
/** An operand, or a scalar to be wrapped as a literal. Objects and arrays go through {@link q.literal}. */
export type Value = Operand | Scalar;
/** Targets of `$convert`. */
export type ConvertTarget = 'double' | 'int' | 'string' | 'bool' | 'exists';

type Pair = [Operand, Operand];

/** Wraps scalars as `{$literal}`; operands pass through unchanged. */
function operand(v: Value): Operand {
  return v !== null && typeof v === 'object' ? v : { $literal: v };
}

const compare =
  <K extends '$eq' | '$gt' | '$gte' | '$lt' | '$lte'>(key: K) =>
  (a: Value, b: Value): { [P in K]: Pair } =>
    ({ [key]: [operand(a), operand(b)] }) as { [P in K]: Pair };

/**
 * The builder. Every function returns the wire object it stands for; combine them and pass the result
 * as `query: q.expr(...)` (or `{ $expr: ... }`).
 *
 * @example
 * ```ts
 * const query = q.expr(q.and(q.eq(q.field('op_name'), 'answer'), q.gt(q.convert(q.field('summary.latency_ms'), 'double'), 100)));
 * // {$expr: {$and: [{$eq: [{$getField: 'op_name'}, {$literal: 'answer'}]},
 * //                 {$gt: [{$convert: {input: {$getField: 'summary.latency_ms'}, to: 'double'}}, {$literal: 100}]}]}}
 * for await (const call of client.calls.streamQuery({ project_id: 'acme/demo', query })) { ... }
 * ```
 * @see The interface spec, "Query object" (it shows `$and` and `$literal`; the other operators and operands are weft's, as `schema/query.ts` checks them)
 */
export const q = {
  /** `{$expr: op}`: the `query` field of a stream_query request. */
  expr: (op: Operation): { $expr: Operation } => ({ $expr: op }),
  /** `{$getField: path}`: reads a column or a dotted path of the call. */
  field: (path: CallField): { $getField: string } => ({ $getField: path }),
  /** `{$literal: value}`: any JSON value (objects and arrays must be wrapped explicitly). */
  literal: <T>(value: T): { $literal: T } => ({ $literal: value }),
  /** `{$convert: {input, to}}`: `double`, `int`, `string`, `bool`, or `exists` (present and not null). */
  convert: (input: Value, to: ConvertTarget): { $convert: { input: Operand; to: ConvertTarget } } => ({
    $convert: { input: operand(input), to },
  }),
  /** `{$and: [...]}`: true when every operation is (true for none). */
  and: (...ops: Operation[]): { $and: Operand[] } => ({ $and: ops }),
  /** `{$or: [...]}`: true when any operation is (false for none). */
  or: (...ops: Operation[]): { $or: Operand[] } => ({ $or: ops }),
  /** `{$not: [op]}`. */
  not: (op: Operation): { $not: [Operand] } => ({ $not: [op] }),
  /** `{$eq: [a, b]}`; null-safe (a missing value equals `null`). */
  eq: compare('$eq'),
  /** `{$gt: [a, b]}`. */
  gt: compare('$gt'),
  /** `{$gte: [a, b]}`. */
  gte: compare('$gte'),
  /** `{$lt: [a, b]}`. */
  lt: compare('$lt'),
  /** `{$lte: [a, b]}`. */
  lte: compare('$lte'),
  /** `{$in: [a, [values...]]}`: true when `a` equals one of the values (false for none). */
  in: (a: Value, values: readonly Value[]): { $in: [Operand, Operand[]] } => ({ $in: [operand(a), values.map(operand)] }),
  /**
   * `{$contains: {input, substr, case_insensitive?}}`: substring test on text; `caseInsensitive` compares
   * Unicode case-folded text.
   */
  contains: (
    input: Value,
    substr: Value,
    options: { caseInsensitive?: boolean } = {},
  ): { $contains: { input: Operand; substr: Operand; case_insensitive?: boolean } } => ({
    $contains: {
      input: operand(input),
      substr: operand(substr),
      ...(options.caseInsensitive === undefined ? {} : { case_insensitive: options.caseInsensitive }),
    },
  }),
} as const;
