/**
 * Call edits after the fact (Weave SDK compatibility): renaming a call, deleting calls with their descendants (and the
 * row deletion retention shares, `dropCallRows`).
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, get, run, type Steps } from '../../db/sql-steps.js';
import { dropUnreferencedFiles, lockFilesOfCalls } from '../../objects/file-store.js';
import { PG_LOCK_FOR_RENAME } from './pg-call-writes.js';
import { markRootsAbove } from './rollup-marks.js';

const UPDATE_NAME = 'UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ? AND started_at IS NOT NULL';

/** The given calls (a list parameter) and every call below them (by parent_id) in one project (the second parameter). */
const subtree = (d: Dialect): string => `WITH RECURSIVE doomed(id) AS (
    ${d.listRows()}
    UNION SELECT c.id FROM calls c JOIN doomed d ON c.parent_id = d.id WHERE c.project_id = ?
  )`;

const KEEP_RENAME = `INSERT INTO call_renames (project_id, call_id, display_name) VALUES (?, ?, ?)
  ON CONFLICT (project_id, call_id) DO UPDATE SET display_name = excluded.display_name`;
const ANY_RENAME = 'SELECT 1 FROM call_renames LIMIT 1';
const APPLY_RENAME = `UPDATE calls SET display_name = r.display_name FROM call_renames r
  WHERE r.project_id = @project AND r.call_id = @id AND calls.project_id = @project AND calls.id = @id AND calls.started_at IS NOT NULL`;
const DROP_RENAME = 'DELETE FROM call_renames WHERE project_id = ? AND call_id = ?';

/**
 * Sets (or, with null, clears) the `display_name` of a call. A call whose start is not stored yet (the Weave
 * SDK renames a call it has ended before its batch is sent) keeps the name in `call_renames` until its start
 * lands ({@link applyPendingRenames}). Run in a transaction. On PostgreSQL it first waits for the batches starting
 * calls of the project through any server to commit (pg-call-writes.ts), so either sees the other.
 */
export function* renameCall(d: Dialect, projectId: string, id: string, displayName: string | null): Steps<void> {
  if (d.engine === 'postgres') yield* run(PG_LOCK_FOR_RENAME, [projectId]);
  if ((yield* run(UPDATE_NAME, [displayName, projectId, id])) === 0) yield* run(KEEP_RENAME, [projectId, id, displayName]);
}

/**
 * Applies the pending renames of calls whose start was just written (one cheap check when none is pending).
 * SQLite's (sqlite-call-flush.ts; PostgreSQL's flush drops them in its upsert): run inside the batch's transaction, after its writes.
 */
export function* applyPendingRenames(started: Iterable<{ projectId: string; id: string }>): Steps<void> {
  if ((yield* get(ANY_RENAME)) === undefined) return;
  for (const { projectId, id } of started) {
    if ((yield* run(APPLY_RENAME, [{ project: projectId, id }])) > 0) yield* run(DROP_RENAME, [projectId, id]);
  }
}

/**
 * Deletes calls and all their descendants (and their stored refs, pending renames, and the files no remaining call
 * refers to). Run in a transaction. The subtree is read once, so its calls, refs and renames go together even while
 * another server adds a child.
 * @returns how many call rows were deleted.
 */
export function* deleteSubtrees(d: Dialect, projectId: string, ids: readonly string[]): Steps<number> {
  const doomed = (yield* all<{ id: string }>(`${subtree(d)} SELECT id FROM doomed`, [d.list(ids), projectId])).map((r) => r.id);
  return (yield* dropCallRows(d, projectId, doomed)).calls;
}

/** What {@link dropCallRows} deleted. */
export interface DroppedRows {
  /** Call rows. */
  calls: number;
  /** Files (media) the deleted calls referred to and no remaining call does. */
  files: number;
}

/**
 * Deletes the given calls of a project with their stored refs and pending renames (not their feedback), first marking
 * the overview hours of the roots above them (rollup-marks.ts), then the files they referred to that no remaining call
 * refers to (objects/file-store.ts `dropUnreferencedFiles`). Run in the caller's transaction, before its other writes:
 * on PostgreSQL it first locks those files (`lockFilesOfCalls`), so a batch writing a ref to one of them commits first
 * and the file stays.
 */
export function* dropCallRows(d: Dialect, projectId: string, ids: readonly string[]): Steps<DroppedRows> {
  const files = yield* lockFilesOfCalls(d, projectId, ids);
  yield* markRootsAbove(d, projectId, ids);
  const doomed = d.list(ids);
  yield* run(`DELETE FROM call_refs WHERE project_id = ? AND ${d.inList('call_id')}`, [projectId, doomed]);
  yield* run(`DELETE FROM call_renames WHERE project_id = ? AND ${d.inList('call_id')}`, [projectId, doomed]);
  const calls = yield* run(`DELETE FROM calls WHERE project_id = ? AND ${d.inList('id')}`, [projectId, doomed]);
  return { calls, files: yield* dropUnreferencedFiles(d, projectId, files) };
}
