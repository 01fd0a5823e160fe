/**
 * Turns zod issues into the wire's validation detail items (`{loc, msg, type}`), for client and server alike.
 * @module
 */
import type { z } from 'zod';
import { LIMITS } from './limits.js';

/** One validation problem with string `loc` parts (spec "Validation error body"). */
export interface DetailItem {
  loc: string[];
  msg: string;
  type: string;
}

type Issue = z.core.$ZodIssue;

/** The `type` of a detail item: pydantic-like names where one fits, else the zod issue code. */
function issueType(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.message === FIELD_REQUIRED ? 'missing' : `${issue.expected}_type`;
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

const FIELD_REQUIRED = 'Field required';

/**
 * Options for `safeParse` of a wire body: a missing field gets the message `Field required` (so it can be
 * told from a wrongly typed one without `reportInput`: issues never hold, nor echo, the input).
 */
export const PARSE_OPTIONS: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? FIELD_REQUIRED : undefined),
};

/**
 * Converts zod issues into detail items, at most `LIMITS.maxIssues` of them plus, past that, one item
 * (`type: "too_many_errors"`) saying how many more there were. Parse with {@link PARSE_OPTIONS} so a
 * missing field (`type: "missing"`, `msg: "Field required"`) can be told from a wrongly typed one.
 *
 * @param issues - the issues of a failed `safeParse`.
 * @param prefix - the first `loc` parts; the server uses `["body"]` for a request body, the client none.
 * @returns one item per issue (per key for unknown keys); every `loc` part is a string.
 */
export function issuesToDetail(issues: readonly Issue[], prefix: string[] = []): DetailItem[] {
  const items = issues.slice(0, LIMITS.maxIssues + 1).flatMap((issue): DetailItem[] => {
    const loc = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ loc: [...loc, k], msg: `Extra inputs are not permitted: unknown field "${k}"`, type: 'extra_forbidden' }));
    }
    return [{ loc, msg: issue.message, type: issueType(issue) }];
  });
  if (items.length <= LIMITS.maxIssues) return items;
  const more = items.length - LIMITS.maxIssues + issues.length - Math.min(issues.length, LIMITS.maxIssues + 1);
  return [
    ...items.slice(0, LIMITS.maxIssues),
    { loc: prefix, msg: `${more} more validation problems not listed (at most ${LIMITS.maxIssues} are)`, type: 'too_many_errors' },
  ];
}
