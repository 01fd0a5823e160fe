/**
 * Turns zod issues into the wire's validation detail items (`{loc, msg, type}`), for client and server alike.
 * @module
 */
import type { z } from 'zod';

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
 * Converts zod issues into detail items. Parse with `reportInput: true` so a missing field
 * (`type: "missing"`, `msg: "Field required"`) can be told from a wrongly typed one.
 *
 * @param issues - the issues of a failed `safeParse`.
 * @param prefix - the first `loc` parts; the server uses `["body"]` for a request body, the client none.
 * @returns one item per issue (per key for unknown keys); every `loc` part is a string.
 */
export function issuesToDetail(issues: readonly Issue[], prefix: string[] = []): DetailItem[] {
  return issues.flatMap((issue) => {
    const loc = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ loc: [...loc, k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }));
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ loc, msg: missing ? 'Field required' : issue.message, type: issueType(issue) }];
  });
}
