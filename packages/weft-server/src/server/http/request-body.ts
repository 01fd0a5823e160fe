/**
 * Request body parsing and validation: malformed JSON and zod issues become 422 `{detail:[{loc, msg, type}]}`; the
 * routes of a JSON body answered as JSON ({@link postJson}).
 * @module
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { HttpError } from './http-error.js';
import { tooDeepAt } from 'weft-trace/wire';
import { LIMITS } from 'weft-trace/wire';
import { PARSE_OPTIONS, issuesToDetail } from 'weft-trace/wire';

/**
 * Reads the request body as JSON, unvalidated but no deeper than `LIMITS.maxJsonDepth` (so no later
 * recursion, in zod, the stores or SQL, can overflow the stack). `JSON.parse` itself does not recurse.
 *
 * @param c - the request context (the body limit has already been enforced by middleware).
 * @returns the parsed JSON value.
 * @throws HttpError 422 with type `json_invalid` for malformed JSON, `json_too_deep` past the depth limit.
 */
export async function readJson(c: Context): Promise<unknown> {
  return parseJsonText(await readText(c));
}

/**
 * The request body as text: its bytes decoded once by `Buffer` (Hono's `text()` decodes through a `TextDecoder`, which
 * cost about as much as parsing an upsert batch). A body Hono already holds as text (the auth middleware read it) is
 * taken as it is.
 */
export async function readText(c: Context): Promise<string> {
  if (c.req.bodyCache.text !== undefined) return c.req.text();
  const text = Buffer.from(await c.req.arrayBuffer()).toString('utf8');
  // as the Fetch API's text() decodes: a leading byte order mark is dropped
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Adds the route `POST path` to `app`: the body is read and validated ({@link readJsonBody}), and what `answer`
 * returns is the answer: 200 with it as JSON, or a `Response` as it is.
 *
 * @param answer - computes the answer from the validated body (zod output) and the request context.
 * @throws HttpError 422 as {@link readJsonBody}, before `answer` runs; or what `answer` throws.
 */
export function postJson<S extends z.ZodType>(
  app: Hono, path: string, schema: S, answer: (body: z.output<S>, c: Context) => unknown,
): void {
  app.post(path, async (c) => {
    const out = await answer(await readJsonBody(c, schema), c);
    return out instanceof Response ? out : c.json(out as never);
  });
}

/**
 * The synchronous half of {@link readJson}: parses a body already read as text (so a caller can read the
 * body first and parse it later, e.g. in its turn of a `TurnQueue`).
 *
 * @param text - the request body.
 * @returns the parsed JSON value.
 * @throws HttpError 422 with type `json_invalid` for malformed JSON, `json_too_deep` past the depth limit.
 */
export function parseJsonText(text: string): unknown {
  const data = parseJson(text, 422);
  if (data !== null && typeof data === 'object') BODY_BYTES.set(data, Buffer.byteLength(text));
  return data;
}

/** Sizes in bytes of the bodies {@link readJson} parsed, for {@link validateBody} to choose how far to check. */
const BODY_BYTES = new WeakMap<object, number>();

/**
 * `JSON.parse` with the depth limit; see {@link readJson}.
 * @param invalidStatus - the status of malformed JSON (`json_invalid`): 422, or 400 for OTLP (otlp-decode.ts).
 */
export function parseJson(text: string, invalidStatus: 400 | 422): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new HttpError(invalidStatus, [{ loc: ['body'], msg: `JSON decode error: ${why}`, type: 'json_invalid' }]);
  }
  const deep = tooDeepAt(data, LIMITS.maxJsonDepth);
  if (deep) {
    const msg = `JSON nested deeper than ${LIMITS.maxJsonDepth} objects and arrays (counting the body itself)`;
    throw HttpError.validation([{ loc: ['body', ...deep], msg, type: 'json_too_deep' }]);
  }
  return data;
}

/**
 * zod's `abortEarly` (this zod passes it through `safeParse`; its `validate` sets it): each array and
 * object stops at its first failing child. Without it (another zod) the parse is whole: slower, as correct.
 */
const FIRST_PROBLEM = { ...PARSE_OPTIONS, abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>;

/**
 * Validates a parsed body with its wire schema. A body read by {@link readJson} longer than
 * `LIMITS.fullReportBytes` is checked only up to its first problem (a cost bounded by the body's size,
 * not by how many of its items are wrong), then one item (`type: "validation_stopped"`) says so.
 *
 * @returns the zod output (defaults applied, `sort_by` direction resolved).
 * @throws HttpError 422 with one item per zod issue (at most `LIMITS.maxIssues`, then a count), `loc` starting at `body`.
 */
export function validateBody<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const big = data !== null && typeof data === 'object' && (BODY_BYTES.get(data) ?? 0) > LIMITS.fullReportBytes;
  const parsed = schema.safeParse(data, big ? FIRST_PROBLEM : PARSE_OPTIONS);
  if (parsed.success) return parsed.data;
  const detail = issuesToDetail(parsed.error.issues, ['body']);
  if (big) detail.push({ loc: ['body'], msg: `validation stopped at the first problem: bodies over ${LIMITS.fullReportBytes} bytes are not checked further`, type: 'validation_stopped' });
  throw HttpError.validation(detail);
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
