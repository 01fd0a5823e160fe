/**
 * The validation error body shared by every endpoint (spec "Validation error body").
 * @module
 */
import { z } from 'zod';

/** One problem with a request: where (`loc`), what (`msg`) and its kind (`type`). */
export const ValidationErrorItem = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

/** HTTP 422 body: `{ detail: [{ loc, msg, type }] }`. */
export const ValidationErrorBody = z.looseObject({ detail: z.array(ValidationErrorItem) });
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
