/**
 * Turns zod issues into the wire's validation detail items (`{loc, msg, type}`), for client and server alike.
 * @module
 */
import type { z } from 'zod';
import type { ValidationErrorItem } from './errors.js';

/**
 * Maps a zod error to `[{loc, msg, type}]`, prefixing every `loc` with `prefix` (the server uses `["body"]`).
 * Path segments become strings, as the spec's `loc` is an array of strings.
 */
export function toValidationDetail(error: z.ZodError, prefix: string[] = []): ValidationErrorItem[] {
  return error.issues.map((issue) => ({
    loc: [...prefix, ...issue.path.map((p) => String(p))],
    msg: issue.message,
    type: issue.code,
  }));
}
