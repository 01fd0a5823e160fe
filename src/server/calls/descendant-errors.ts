/**
 * The SQL deriving `descendant_error` from stored descendants, for calls whose end came without `status_counts` (the Weave SDKs send none).
 * @module
 */

/**
 * 1 when the current `calls` row (unaliased, as the queries select it) ended without an exception, has no
 * `summary.status_counts`, and some stored descendant of it (by parent_id, at any depth) has an exception; else 0.
 * Rows with `status_counts` (weft's SDK always sends them) skip the walk. The walk uses UNION, so a cycle of
 * parent ids ends, and reads the `(project_id, parent_id, ...)` index.
 */
export const DESCENDANT_FAILED_SQL = `(CASE WHEN calls.ended_at IS NOT NULL AND calls.exception IS NULL
    AND json_extract(calls.summary, '$.status_counts') IS NULL
  THEN EXISTS (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = calls.project_id AND d.parent_id = calls.id
      UNION SELECT c.id FROM calls c JOIN below b ON c.project_id = calls.project_id AND c.parent_id = b.id
    )
    SELECT 1 FROM calls e WHERE e.project_id = calls.project_id AND e.id IN (SELECT id FROM below) AND e.exception IS NOT NULL)
  ELSE 0 END)`;
