/**
 * Request body parsing and validation: malformed JSON and zod issues become 422 `{detail:[{loc, msg, type}]}`.
 * @module
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { type DetailItem, HttpError } from './http-error.js';

type Issue = z.core.$ZodIssue;

/** The `type` of a detail item: pydantic-like names where one fits, else the zod issue code. */
function issueType(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
    case 'invalid_union':
      return 'discriminator' in issue && issue.discriminator ? 'union_tag_invalid' : 'union_invalid';
    case 'invalid_value':
      return 'literal_error';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'invalid_format':
      return `${issue.format}_format`;
    default:
      return issue.code;
  }
}

/**
 * Converts zod issues (parsed with `reportInput: true`) into detail items.
 *
 * @param issues - the issues of a failed `safeParse`.
 * @param prefix - the first `loc` parts; `["body"]` for a request body.
 * @returns one item per issue (per key for unknown keys); every `loc` part is a string.
 */
export function issuesToDetail(issues: readonly Issue[], prefix: string[] = ['body']): DetailItem[] {
  return issues.flatMap((issue) => {
    const loc = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ loc: [...loc, k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }));
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ loc, msg: missing ? 'Field required' : issue.message, type: issueType(issue) }];
  });
}

/**
 * Reads the request body as JSON and validates it.
 *
 * @param c - the request context (the body limit has already been enforced by middleware).
 * @param schema - the wire schema of the endpoint's body.
 * @returns the parsed body (zod output: defaults applied, `sort_by` direction resolved).
 * @throws HttpError 422 with type `json_invalid` for malformed JSON, or one item per zod issue.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw HttpError.validation([{ loc: ['body'], msg: `JSON decode error: ${why}`, type: 'json_invalid' }]);
  }
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw HttpError.validation(issuesToDetail(parsed.error.issues));
  return parsed.data;
}
