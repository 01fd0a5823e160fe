/**
 * Checks a request body against its wire schema before it is sent, for the client and the helpers alike. It stands
 * above `schema/` and `errors.ts`: it throws the `RequestValidationError` of `errors.ts` with the detail items of
 * `schema/validate.ts`.
 * @module
 */
import type { z } from 'zod';
import { RequestValidationError } from './errors.js';
import { PARSE_OPTIONS, issuesToDetail } from './schema/validate.js';

/**
 * Validates `body` with `schema` and returns the parsed value.
 * @param what - names the body in the error message (`"trajectory log"`, `"feedback item"`).
 * @throws {RequestValidationError} with `detail` as the server would answer it (`[{loc, msg, type}]`).
 */
export function checkRequest<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body, PARSE_OPTIONS);
  if (!parsed.success) throw new RequestValidationError(issuesToDetail(parsed.error.issues), what);
  return parsed.data;
}
