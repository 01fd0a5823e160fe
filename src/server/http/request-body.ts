/**
 * Request body parsing and validation: malformed JSON and zod issues become 422 `{detail:[{loc, msg, type}]}`.
 * @module
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError } from './http-error.js';
import { tooDeepAt } from '../../schema/json-depth.js';
import { LIMITS } from '../../schema/limits.js';
import { PARSE_OPTIONS, issuesToDetail } from '../../schema/validate.js';

/**
 * Reads the request body as JSON, unvalidated but no deeper than `LIMITS.maxJsonDepth` (so no later
 * recursion, in zod, the stores or SQL, can overflow the stack). `JSON.parse` itself does not recurse.
 *
 * @param c - the request context (the body limit has already been enforced by middleware).
 * @returns the parsed JSON value.
 * @throws HttpError 422 with type `json_invalid` for malformed JSON, `json_too_deep` past the depth limit.
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw HttpError.validation([{ loc: ['body'], msg: `JSON decode error: ${why}`, type: 'json_invalid' }]);
  }
  const deep = tooDeepAt(data, LIMITS.maxJsonDepth);
  if (deep) {
    const msg = `JSON nested deeper than ${LIMITS.maxJsonDepth} objects and arrays (counting the body itself)`;
    throw HttpError.validation([{ loc: ['body', ...deep], msg, type: 'json_too_deep' }]);
  }
  return data;
}

/**
 * Validates a parsed body with its wire schema.
 *
 * @returns the zod output (defaults applied, `sort_by` direction resolved).
 * @throws HttpError 422 with one item per zod issue (at most `LIMITS.maxIssues`, then a count), `loc` starting at `body`.
 */
export function validateBody<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data, PARSE_OPTIONS);
  if (!parsed.success) throw HttpError.validation(issuesToDetail(parsed.error.issues, ['body']));
  return parsed.data;
}

/**
 * Reads the request body as JSON and validates it ({@link readJson} then {@link validateBody}).
 *
 * @param c - the request context (the body limit has already been enforced by middleware).
 * @param schema - the wire schema of the endpoint's body.
 * @returns the parsed body (zod output: defaults applied, `sort_by` direction resolved).
 * @throws HttpError 422 with type `json_invalid` for malformed JSON, or one item per zod issue.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return validateBody(schema, await readJson(c));
}
