/**
 * Feedback fields of a call query, as Weave names them: `feedback.[<feedback_type>].payload.<path>` (`[*]`: any type).
 * Parsed here once for both stores, read by the one field compiler (fields.ts) over each engine's leaves.
 * @module
 */
import { parseFieldPath } from '../../db/field-path.js';
import { QueryError } from '../../db/query-error.js';

const PREFIX = 'feedback.[';

/** A parsed feedback field. */
export interface FeedbackField {
  /** The feedback type to read, or null for `[*]` (any type). */
  type: string | null;
  /** Path segments inside the payload (empty: the whole payload), read key by key (a numeric segment indexes an array). */
  segments: string[];
  /** A column of the feedback record read instead of the payload (`runnable_ref`, `trigger_ref`, ...). */
  column?: string;
}

/** Columns of a feedback record a field may read besides `payload` (both stores name them alike). */
const COLUMNS = new Set(['id', 'feedback_type', 'runnable_ref', 'trigger_ref', 'call_ref', 'annotation_ref', 'creator', 'queue_id', 'created_at']);

/** True when `path` names a feedback field (Weave reads a call without such feedback as `''` in `$expr`). */
export const isFeedbackField = (path: string): boolean => path.startsWith(PREFIX);

/**
 * Parses a feedback field. The value is the payload path (or the column) of the call's newest feedback of that type holding it
 * (created_at, then id), or null when none does; Weave takes any one of them.
 *
 * @param path - a field path as sent.
 * @param loc - location of the path in the request, for errors.
 * @returns the field, or undefined when `path` is no feedback field (it does not start `feedback.[`).
 * @throws QueryError for a feedback field that is malformed or reads other than the payload.
 */
export function parseFeedbackField(path: string, loc: string[]): FeedbackField | undefined {
  if (!path.startsWith(PREFIX)) return undefined;
  const close = path.indexOf(']', PREFIX.length);
  const type = close < 0 ? '' : path.slice(PREFIX.length, close);
  const rest = close < 0 ? '' : path.slice(close + 1);
  const column = rest.slice(1);
  if (type !== '' && rest.startsWith('.') && COLUMNS.has(column)) return { type: type === '*' ? null : type, segments: [], column };
  if (type === '' || !(rest === '.payload' || rest.startsWith('.payload.'))) {
    const expected = `feedback.[<feedback_type>].payload.<path> (type * for any) or feedback.[<feedback_type>].<${[...COLUMNS].join(' | ')}>`;
    throw new QueryError(loc, `invalid feedback field ${JSON.stringify(path)}: expected ${expected}`);
  }
  const inner = rest.slice('.payload.'.length);
  return { type: type === '*' ? null : type, segments: inner === '' ? [] : parseFieldPath(inner, loc).segments };
}
