/**
 * `descendant_error` from stored descendants on PostgreSQL (the twin of descendant-errors.ts's SQL).
 * @module
 */

/**
 * The calls of `$2` (a text[]) in project `$1` that have a descendant (by parent_id, any depth) with an exception;
 * one row `{root}` each. UNION, so a cycle of parent ids ends.
 */
export const PG_DESCENDANTS_FAILED_SQL = `WITH RECURSIVE below(root, id) AS (
    SELECT v COLLATE "C", v COLLATE "C" FROM unnest($2::text[]) AS v
    UNION SELECT b.root, c.id FROM calls c JOIN below b ON c.project_id = $1 AND c.parent_id = b.id
  )
  SELECT DISTINCT b.root AS root FROM below b JOIN calls e ON e.project_id = $1 AND e.id = b.id
  WHERE b.id <> b.root AND e.exception IS NOT NULL`;

/** Boolean SQL for the current `calls` row, the rule of `DESCENDANT_FAILED_SQL` (descendant-errors.ts). */
export const PG_DESCENDANT_FAILED_SQL = `(CASE WHEN calls.ended_at IS NOT NULL AND calls.exception IS NULL
    AND weft_jv(calls.summary -> 'status_counts') IS NULL
  THEN EXISTS (WITH RECURSIVE below(id) AS (
      SELECT d.id FROM calls d WHERE d.project_id = calls.project_id AND d.parent_id = calls.id
      UNION SELECT c.id FROM calls c JOIN below b ON c.project_id = calls.project_id AND c.parent_id = b.id
    )
    SELECT 1 FROM calls e WHERE e.project_id = calls.project_id AND e.id IN (SELECT id FROM below) AND e.exception IS NOT NULL)
  ELSE false END)`;
