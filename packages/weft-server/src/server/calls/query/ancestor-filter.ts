/**
 * `filter.ancestor_ids` of `/calls/stream_query`, as Weave's calls query builder has it (its descendants CTE): the
 * calls under any of the given calls, at any depth, by `parent_id`; an empty list matches no call. One clause for both
 * engines, over their leaves.
 * @module
 */
import type { Params } from '../../db/sql-params.js';

/** What the clause needs of an engine. */
export interface AncestorLeaves {
  /** SQL false. */
  readonly FALSE: string;
  /** The join of a recursive CTE to `calls` that keeps this order (SQLite's `CROSS JOIN`). */
  readonly joinInOrder: string;
  /** `expr` matches one of `values`. */
  inValues(expr: string, values: readonly string[], params: Params): string;
}

/**
 * The WHERE clause of `ancestor_ids` over the current `calls` row, or undefined when the filter is absent (null).
 * The walk starts at the children of the given ids (each id in both its forms, as `IdList` gives them) and follows
 * `parent_id` down through the `(project_id, parent_id, ...)` index; UNION ends a cycle of parent ids. The given calls
 * are not in the answer unless they lie under another given call.
 *
 * @param ids - the validated `ancestor_ids`.
 * @param projectId - the query's project.
 */
export function ancestorClause(ids: readonly string[] | null | undefined, projectId: string, params: Params, e: AncestorLeaves): string | undefined {
  if (ids === null || ids === undefined) return undefined;
  if (ids.length === 0) return e.FALSE;
  const project = params.bind(projectId);
  const roots = e.inValues('d.parent_id', ids, params);
  const again = params.bind(projectId);
  return `calls.id IN (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = ${project} AND ${roots}
      UNION SELECT c.id FROM below b ${e.joinInOrder} calls c ON c.project_id = ${again} AND c.parent_id = b.id
    ) SELECT id FROM below)`;
}
