/**
 * The `$expr` query grammar of `/calls/stream_query` (the interface spec, "Query object", shows only `$and` and `$literal`; the rest is weft's).
 * @module
 */
import { z } from 'zod';

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
    z.strictObject({ $getField: z.string().min(1) }),
    z.strictObject({
      $convert: z.strictObject({
        input: OperandSchema,
        to: z.enum(['double', 'int', 'string', 'bool', 'exists']),
      }),
    }),
    OperationSchema,
  ]),
) as z.ZodType<Operand>;

export const OperationSchema: z.ZodType<Operation> = z.lazy(() =>
  z.union([
    z.strictObject({ $and: z.array(OperandSchema) }),
    z.strictObject({ $or: z.array(OperandSchema) }),
    z.strictObject({ $not: z.tuple([OperandSchema]) }),
    z.strictObject({ $eq: pair() }),
    z.strictObject({ $gt: pair() }),
    z.strictObject({ $gte: pair() }),
    z.strictObject({ $lt: pair() }),
    z.strictObject({ $lte: pair() }),
    z.strictObject({ $in: z.tuple([OperandSchema, z.array(OperandSchema)]) }),
    z.strictObject({
      $contains: z.strictObject({
        input: OperandSchema,
        substr: OperandSchema,
        case_insensitive: z.boolean().nullish(),
      }),
    }),
  ]),
) as z.ZodType<Operation>;

/** Spec "Query object": `{ $expr: <operation> }`. */
export const Query = z.object({ $expr: OperationSchema });
export type Query = z.infer<typeof Query>;
