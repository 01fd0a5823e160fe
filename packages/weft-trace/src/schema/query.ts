/**
 * The `$expr` query grammar of `/calls/stream_query` (the interface spec, "Query object", shows only `$and` and `$literal`; the rest is weft's).
 * @module
 */
import { z } from 'zod';
import { FieldPath } from './common.js';
import { LIMITS, tooMany } from './limits.js';

/** An operand: a literal, a field read, a conversion, or a nested operation. */
export type Operand =
  | { $literal: unknown }
  | { $getField: string }
  | { $convert: { input: Operand; to: 'double' | 'int' | 'string' | 'bool' | 'exists' } }
  | Operation;

/** A boolean operation over operands. */
export type Operation =
  | { $and: Operand[] }
  | { $or: Operand[] }
  | { $not: [Operand] }
  | { $eq: [Operand, Operand] }
  | { $gt: [Operand, Operand] }
  | { $gte: [Operand, Operand] }
  | { $lt: [Operand, Operand] }
  | { $lte: [Operand, Operand] }
  | { $in: [Operand, Operand[]] }
  | { $contains: { input: Operand; substr: Operand; case_insensitive?: boolean | null } };

const pair = (): z.ZodType<[Operand, Operand]> => z.tuple([OperandSchema, OperandSchema]);

export const OperandSchema: z.ZodType<Operand> = z.lazy(() =>
  z.union([
    z.strictObject({ $literal: z.unknown() }),
    z.strictObject({ $getField: FieldPath }),
    z.strictObject({
      $convert: z.strictObject({
        input: OperandSchema,
        to: z.enum(['double', 'int', 'string', 'bool', 'exists']),
      }),
    }),
    OperationSchema,
  ]),
) as z.ZodType<Operand>;

/** The terms of `$and` / `$or`: at most `LIMITS.maxExprTerms`. */
const Terms = z.lazy(() => z.array(OperandSchema).max(LIMITS.maxExprTerms, tooMany('terms', LIMITS.maxExprTerms)));

export const OperationSchema: z.ZodType<Operation> = z.lazy(() =>
  z.union([
    z.strictObject({ $and: Terms }),
    z.strictObject({ $or: Terms }),
    z.strictObject({ $not: z.tuple([OperandSchema]) }),
    z.strictObject({ $eq: pair() }),
    z.strictObject({ $gt: pair() }),
    z.strictObject({ $gte: pair() }),
    z.strictObject({ $lt: pair() }),
    z.strictObject({ $lte: pair() }),
    z.strictObject({
      $in: z.tuple([OperandSchema, z.array(OperandSchema).max(LIMITS.maxInValues, tooMany('$in values', LIMITS.maxInValues))]),
    }),
    z.strictObject({
      $contains: z.strictObject({
        input: OperandSchema,
        substr: OperandSchema,
        case_insensitive: z.boolean().nullish(),
      }),
    }),
  ]),
) as z.ZodType<Operation>;

/** Objects and arrays in `value` (iterative: a `$expr` is bounded in depth, but counted without recursion anyway). */
function countNodes(value: unknown): number {
  let n = 0;
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    n++;
    for (const x of Object.values(v)) stack.push(x);
  }
  return n;
}

/**
 * Spec "Query object": `{ $expr: <operation> }`. Limits: `$and` / `$or` take at most `LIMITS.maxExprTerms`
 * terms, `$in` at most `LIMITS.maxInValues` values, the whole `$expr` at most `LIMITS.maxExprOperands`
 * objects and arrays; `$getField` paths hold no control characters. Nesting is bounded by the body's depth limit.
 */
export const Query = z
  .object({ $expr: OperationSchema })
  .refine((q) => countNodes(q.$expr) <= LIMITS.maxExprOperands, {
    path: ['$expr'],
    message: `a $expr may hold at most ${LIMITS.maxExprOperands} objects and arrays`,
  });
export type Query = z.infer<typeof Query>;
