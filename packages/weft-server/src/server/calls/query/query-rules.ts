/**
 * What the SQLite and PostgreSQL call-query compilers decide alike, as Weave's trace server answers: when a timestamp
 * column reads as epoch seconds, when a missing feedback value reads as '', `op_names` wildcards and bare run ids.
 * @module
 */
import type { Operand } from 'weft-trace/wire';
import { isFeedbackField } from './feedback-fields.js';
import type { Params } from '../../db/sql-params.js';

/** Columns holding an instant (ISO 8601 text); compared with a number, they read as epoch seconds. */
const TIME_COLUMNS = new Set(['started_at', 'ended_at']);

/**
 * The timestamp column `o` names when it is compared with numbers only: Weave reads a number compared with
 * `started_at` / `ended_at` as seconds since the epoch, so the column is compared as epoch seconds then.
 *
 * @param o - one side of a comparison (or the needle of `$in`).
 * @param others - the other side(s).
 * @returns `started_at` or `ended_at`, else undefined (compare as usual).
 */
export function epochColumn(o: Operand, others: readonly Operand[]): string | undefined {
  if (!('$getField' in o) || !TIME_COLUMNS.has(o.$getField) || others.length === 0) return undefined;
  return others.every((x) => '$literal' in x && typeof x.$literal === 'number') ? o.$getField : undefined;
}

/**
 * True when `o` is a feedback field compared with a string: a call without that feedback reads as `''` then, as
 * Weave's `JSON_VALUE` gives it (its "has feedback" idiom is `$not: [$eq: [field, ""]]`). Against numbers it stays null.
 */
export function missingAsEmpty(o: Operand, others: readonly Operand[]): boolean {
  return '$getField' in o && isFeedbackField(o.$getField) && others.some((x) => '$literal' in x && typeof x.$literal === 'string');
}

/** The derived status fields (fields.ts `STATUS`). */
const STATUS_FIELDS: ReadonlySet<string> = new Set(['summary.status', 'summary.weave.status']);

/**
 * `$eq` of a status field and the literal `running` or `error`, as a condition on columns alone: `ended_at IS NULL`,
 * and an ended call with an exception (the first two branches of the status rule, fields.ts `STATUS`: the same answer,
 * true or false, never null). A page of errors newest first then filters the started_at index's rows on two columns
 * instead of deriving each row's status from its summary (on PostgreSQL ~50 us a row: a page at 2% errors read 115 ms).
 *
 * @param a - one side of the `$eq`.
 * @param b - the other side.
 * @param column - the engine's SQL of a `calls` column.
 * @returns the condition, or undefined for any other comparison (compiled as usual).
 */
export function statusByColumns(a: Operand, b: Operand, column: (name: string) => string): string | undefined {
  const [field, value] = '$getField' in a ? [a, b] : [b, a];
  if (!('$getField' in field) || !STATUS_FIELDS.has(field.$getField) || !('$literal' in value)) return undefined;
  if (value.$literal === 'running') return `${column('ended_at')} IS NULL`;
  if (value.$literal === 'error') return `(${column('ended_at')} IS NOT NULL AND ${column('exception')} IS NOT NULL)`;
  return undefined;
}

/** Marks an `op_names` entry matching every version of an op (Weave's `WILDCARD_ARTIFACT_VERSION_AND_PATH`). */
const WILDCARD = ':*';

/**
 * The `op_names` condition when it holds a `<ref>:*` entry (else undefined: an exact match as other lists): each such
 * entry matches every op name starting with `<ref>:` (every version of the op), as the range `<ref>: <= op_name <
 * <ref>;` (`;` is the code point after `:`), which holds exactly for those names in code point order, as both stores
 * order `op_name` (SQLite BINARY, PostgreSQL `COLLATE "C"`), so an index on `op_name` serves it; the exact names are
 * one list; the terms are joined by OR. The engine binds values its own way.
 *
 * @param names - the `op_names` filter.
 * @param column - the SQL of the `op_name` column.
 * @param params - the statement's parameters, which bind the range ends.
 * @param inList - SQL testing `column` against a list of exact names.
 */
export function opNamesCondition(names: readonly string[], column: string, params: Params, inList: (names: string[]) => string): string | undefined {
  const wild = names.filter((name) => name.endsWith(WILDCARD));
  if (wild.length === 0) return undefined;
  const range = (stem: string): string =>
    `(${column} >= ${params.bind(`${stem}:`)} AND ${column} < ${params.bind(`${stem};`)})`;
  const terms = wild.map((name) => range(name.slice(0, -2)));
  const exact = names.filter((name) => !name.endsWith(WILDCARD));
  if (exact.length > 0) terms.push(inList(exact));
  return `(${terms.join(' OR ')})`;
}

/**
 * The run ids a `svc_run_ids` filter matches: each entry as written and, for a bare run id (no `/`), the id qualified
 * with the queried project, `<entity>/<project>/<run>`, as Weave's trace server qualifies one (its
 * `_ext_to_int_run_ids`). The bare form still matches too: weft stores run ids as sent.
 *
 * @param runIds - the filter's entries.
 * @param projectId - the query's `project_id`.
 */
export function runIdForms(runIds: readonly string[], projectId: string): string[] {
  return [...new Set(runIds.flatMap((id) => (id.includes('/') ? [id] : [id, `${projectId}/${id}`])))];
}
