/**
 * Call edits after the fact (Weave SDK compatibility): renaming a call, deleting calls with their descendants.
 * @module
 */
import type { Prepare } from '../db/statement-cache.js';

const UPDATE_NAME = 'UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ? AND started_at IS NOT NULL';

/** The given calls and every call below them (by parent_id), in one project. */
const SUBTREE = `WITH RECURSIVE doomed(id) AS (
    SELECT value FROM json_each(@ids)
    UNION SELECT c.id FROM calls c JOIN doomed d ON c.parent_id = d.id WHERE c.project_id = @project
  )`;
const DELETE_CALLS = `${SUBTREE} DELETE FROM calls WHERE project_id = @project AND id IN (SELECT id FROM doomed)`;
const DELETE_REFS = `${SUBTREE} DELETE FROM call_refs WHERE project_id = @project AND call_id IN (SELECT id FROM doomed)`;
const DELETE_RENAMES = `${SUBTREE} DELETE FROM call_renames WHERE project_id = @project AND call_id IN (SELECT id FROM doomed)`;

const KEEP_RENAME = `INSERT INTO call_renames (project_id, call_id, display_name) VALUES (?, ?, ?)
  ON CONFLICT (project_id, call_id) DO UPDATE SET display_name = excluded.display_name`;
const ANY_RENAME = 'SELECT 1 FROM call_renames LIMIT 1';
const APPLY_RENAME = `UPDATE calls SET display_name = r.display_name FROM call_renames r
  WHERE r.project_id = @project AND r.call_id = @id AND calls.project_id = @project AND calls.id = @id AND calls.started_at IS NOT NULL`;
const DROP_RENAME = 'DELETE FROM call_renames WHERE project_id = ? AND call_id = ?';

/**
 * Sets (or, with null, clears) the `display_name` of a call. A call whose start is not stored yet (the Weave
 * SDK renames a call it has ended before its batch is sent) keeps the name in `call_renames` until its start
 * lands ({@link applyPendingRenames}). Run inside a transaction.
 */
export function renameCall(prepare: Prepare, projectId: string, id: string, displayName: string | null): void {
  if (prepare(UPDATE_NAME).run(displayName, projectId, id).changes === 0) prepare(KEEP_RENAME).run(projectId, id, displayName);
}

/**
 * Applies the pending renames of calls whose start was just written (one cheap check when none is pending).
 * Run inside the batch's transaction, after its writes.
 */
export function applyPendingRenames(prepare: Prepare, started: Iterable<{ projectId: string; id: string }>): void {
  if (prepare(ANY_RENAME).get() === undefined) return;
  for (const { projectId, id } of started) {
    if (prepare(APPLY_RENAME).run({ project: projectId, id }).changes > 0) prepare(DROP_RENAME).run(projectId, id);
  }
}

/**
 * Deletes calls and all their descendants (and their stored refs). Run inside a transaction.
 * @returns how many call rows were deleted.
 */
export function deleteSubtrees(prepare: Prepare, projectId: string, ids: readonly string[]): number {
  const params = { project: projectId, ids: JSON.stringify(ids) };
  prepare(DELETE_REFS).run(params);
  prepare(DELETE_RENAMES).run(params);
  return prepare(DELETE_CALLS).run(params).changes;
}
