/**
 * The marks of stale feedback rollups (table `feedback_rollup_marks`, migration 13): a write that adds or deletes
 * feedback marks the (project, hour of `created_at`) of its rows in its own transaction, one statement for the batch's
 * few distinct hours (a new batch: the hour in progress, almost always), raising the mark's `gen` when it is there
 * already. The rollup job (feedback-rollup-refresh.ts) reads a marked hour's rows in slices, outside any transaction,
 * and clears the mark only if its `gen` is still the one it read first: a write that marked the hour meanwhile keeps it
 * stale. On PostgreSQL the clearing `DELETE ... WHERE gen = ?` waits for a concurrent write holding the mark's row and
 * then sees its new `gen`; a write whose mark comes after the clear inserts a new one.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, run, type Steps } from '../db/sql-steps.js';

/** The hour key (`YYYY-MM-DDTHH`, UTC) of a normalized `created_at`. */
export const feedbackHour = (createdAt: string): string => createdAt.slice(0, 13);

const PG_MARK = `INSERT INTO feedback_rollup_marks (project_id, hour) SELECT p, h FROM unnest(?::text[], ?::text[]) AS v(p, h)
  ON CONFLICT (project_id, hour) DO UPDATE SET gen = feedback_rollup_marks.gen + 1`;

/**
 * Marks the hours of some feedback rows stale; run in the transaction of the write.
 * @param rows - the rows' project and `created_at` (normalized), duplicates welcome.
 */
export function* markFeedbackHours(d: Dialect, rows: readonly { project_id: string; created_at: string }[]): Steps<void> {
  const keys = new Map<string, [string, string]>();
  for (const r of rows) {
    const hour = feedbackHour(r.created_at);
    keys.set(`${r.project_id}\u0000${hour}`, [r.project_id, hour]);
  }
  if (keys.size === 0) return;
  // in key order, so two writes upserting the same marks take their row locks in one order (PostgreSQL)
  const pairs = [...keys.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair);
  if (d.engine === 'postgres') {
    yield* run(PG_MARK, [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
    return;
  }
  const values = pairs.map(() => '(?, ?)').join(', ');
  yield* run(`INSERT INTO feedback_rollup_marks (project_id, hour) VALUES ${values}
    ON CONFLICT (project_id, hour) DO UPDATE SET gen = gen + 1`, pairs.flat());
}

/**
 * Deletes the feedback of one project whose `column` is one of `values`, marking the hours it held.
 * @returns how many rows were deleted.
 */
export function* deleteFeedback(d: Dialect, projectId: string, column: 'id' | 'call_id', values: readonly string[]): Steps<number> {
  const gone = yield* all<{ project_id: string; created_at: string }>(
    `DELETE FROM feedback WHERE project_id = ? AND ${d.inList(column)} RETURNING project_id, created_at`, [projectId, d.list(values)]);
  yield* markFeedbackHours(d, gone);
  return gone.length;
}
