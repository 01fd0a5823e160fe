/**
 * `descendant_error` derived from stored descendants, for calls whose end came without `status_counts` (the Weave SDKs send none): the SQL, and the records' fix-up.
 * @module
 */
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../db/store-api.js';

/**
 * The calls of `@ids` (a JSON array) in project `@project` that have a descendant (by parent_id, any depth)
 * with an exception; one row `{root}` each. UNION, so a cycle of parent ids ends; reads the parent index.
 * `CROSS JOIN` keeps the walk outermost: with a plain join SQLite's planner put `calls` outside and scanned the
 * project's whole parent index per step (a 10,000-call trace in a 1,000,000-call project: 16 s instead of ms).
 */
export const DESCENDANTS_FAILED_SQL = `WITH RECURSIVE below(root, id) AS (
    SELECT value, value FROM json_each(@ids)
    UNION SELECT b.root, c.id FROM below b CROSS JOIN calls c ON c.project_id = @project AND c.parent_id = b.id
  )
  SELECT DISTINCT b.root AS root FROM below b CROSS JOIN calls e ON e.project_id = @project AND e.id = b.id
  WHERE b.id <> b.root AND e.exception IS NOT NULL`;

/**
 * Marks `descendant_error` the records of a page that read `success` only because their end sent no
 * `status_counts`, when a stored descendant failed. One query per page, and none when every record has
 * `status_counts` (weft's SDK always sends them).
 *
 * @param projectId - the queried project.
 * @param page - records as built by `rowToRecord` (changed in place).
 * @param failed - which of the given ids have a failed descendant (a Promise of them on PostgreSQL).
 * @returns nothing, or a Promise when `failed` answered one.
 */
export function markDescendantErrors(
  projectId: string,
  page: readonly StoredCallRecord[],
  failed: (projectId: string, ids: readonly string[]) => MaybePromise<Set<string>>,
): MaybePromise<void> {
  const candidates = page.filter((r) => r.summary.status === 'success' && r.summary['status_counts'] === undefined);
  if (candidates.length === 0) return;
  return andThen(failed(projectId, candidates.map((r) => r.id)), (hit) => {
    for (const r of candidates) if (hit.has(r.id)) r.summary.status = 'descendant_error';
  });
}

/**
 * For `summary.status` in filters and sorts: 1 when the current `calls` row (unaliased, as the queries select it) ended without an exception, has no
 * `summary.status_counts`, and some stored descendant of it (by parent_id, at any depth) has an exception; else 0.
 * Rows with `status_counts` (weft's SDK always sends them) skip the walk. The walk uses UNION, so a cycle of
 * parent ids ends, and reads the `(project_id, parent_id, ...)` index.
 */
export const DESCENDANT_FAILED_SQL = `(CASE WHEN calls.ended_at IS NOT NULL AND calls.exception IS NULL
    AND json_extract(calls.summary, '$.status_counts') IS NULL
  THEN EXISTS (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = calls.project_id AND d.parent_id = calls.id
      UNION SELECT c.id FROM below b CROSS JOIN calls c ON c.project_id = calls.project_id AND c.parent_id = b.id
    )
    SELECT 1 FROM calls e WHERE e.project_id = calls.project_id AND e.id IN (SELECT id FROM below) AND e.exception IS NOT NULL)
  ELSE 0 END)`;
