/**
 * The marks of stale feedback rollups (table `feedback_rollup_marks`, migration 13): a write that adds or deletes
 * feedback marks the (project, hour of `created_at`) of its rows in its own transaction, one statement for the batch's
 * few distinct hours (a new batch: the hour in progress, almost always). The rollup job (feedback-rollup-refresh.ts)
 * recomputes a marked hour and clears its mark.
 *
 * PostgreSQL (several servers, concurrent transactions), as the overview's marks (calls/rollup-marks.ts): a write takes
 * a shared advisory lock on each hour it marks, the job an exclusive one on the hour it recomputes, each until its
 * transaction ends, so a mark is never cleared over rows the rollup missed. SQLite's job runs its transaction
 * synchronously: no write falls between its read and its clear.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, run, type Steps } from '../db/sql-steps.js';

/** The hour key (`YYYY-MM-DDTHH`, UTC) of a normalized `created_at`. */
export const feedbackHour = (createdAt: string): string => createdAt.slice(0, 13);

/** Namespace (first int4 key) of PostgreSQL's per-hour advisory locks of the feedback rollups: 'wffb' in ASCII. */
export const FEEDBACK_LOCK_SPACE = 0x77666662;

/** The advisory lock key (second int4) of a (project, hour). */
export const feedbackLockKey = (projectIdSql: string, hourSql: string): string => `hashtext(${projectIdSql} || ' ' || ${hourSql})`;

const PG_MARK = `WITH l AS (SELECT count(pg_advisory_xact_lock_shared(${FEEDBACK_LOCK_SPACE}, k)) AS n FROM (
    SELECT DISTINCT ${feedbackLockKey('p', 'h')} AS k FROM unnest(?::text[], ?::text[]) AS v(p, h) ORDER BY 1) s)
  INSERT INTO feedback_rollup_marks (project_id, hour) SELECT p, h FROM unnest(?::text[], ?::text[]) AS v(p, h), l WHERE l.n >= 0
  ON CONFLICT DO NOTHING`;

/**
 * Marks the hours of some feedback rows stale; run in the transaction of the write.
 * @param rows - the rows' project and `created_at` (normalized), duplicates welcome.
 */
export function* markFeedbackHours(d: Dialect, rows: readonly { project_id: string; created_at: string }[]): Steps<void> {
  const seen = new Set<string>();
  const projects: string[] = [];
  const hours: string[] = [];
  for (const r of rows) {
    const hour = feedbackHour(r.created_at);
    const key = `${r.project_id}\u0000${hour}`;
    if (seen.has(key)) continue;
    seen.add(key);
    projects.push(r.project_id);
    hours.push(hour);
  }
  if (projects.length === 0) return;
  if (d.engine === 'postgres') {
    yield* run(PG_MARK, [projects, hours, projects, hours]);
    return;
  }
  const values = projects.map(() => '(?, ?)').join(', ');
  yield* run(`INSERT OR IGNORE INTO feedback_rollup_marks (project_id, hour) VALUES ${values}`, projects.flatMap((p, i) => [p, hours[i]]));
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
