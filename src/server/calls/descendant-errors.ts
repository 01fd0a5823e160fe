/**
 * `descendant_error` derived from stored descendants, for calls whose end came without `status_counts` (the Weave SDKs send none): the SQL of
 * filters and sorts on each engine, and the records' fix-up (the lookup is `descendantFailed` of call-store.ts).
 * @module
 */
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../db/store-api.js';

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

/** The rule of {@link DESCENDANT_FAILED_SQL} on PostgreSQL (a boolean). */
export const PG_DESCENDANT_FAILED_SQL = `(CASE WHEN calls.ended_at IS NOT NULL AND calls.exception IS NULL
    AND weft_jv(calls.summary -> 'status_counts') IS NULL
  THEN EXISTS (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = calls.project_id AND d.parent_id = calls.id
      UNION SELECT c.id FROM calls c JOIN below b ON c.project_id = calls.project_id AND c.parent_id = b.id
    )
    SELECT 1 FROM calls e WHERE e.project_id = calls.project_id AND e.id IN (SELECT id FROM below) AND e.exception IS NOT NULL)
  ELSE false END)`;
