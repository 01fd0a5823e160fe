/**
 * The feedback rollup job's steps, written once for both engines: the stale hours (marked by writes,
 * feedback-rollup-marks.ts), and one hour's rollup recomputed from its feedback rows (rollup-fold.ts) and stored in
 * place of the old, its mark cleared, in one transaction.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, get, insert, run, type Steps } from '../db/sql-steps.js';
import { FEEDBACK_LOCK_SPACE, feedbackLockKey } from './feedback-rollup-marks.js';
import { HourFold } from './rollup-fold.js';

/** A stale hour of a project. */
export interface StaleFeedbackHour {
  projectId: string;
  /** `YYYY-MM-DDTHH` (UTC). */
  hour: string;
}

/** The oldest stale hours before `beforeHour` (the hour in progress is left: writes keep marking it), at most `limit`. */
export function* staleFeedbackHours(_: Dialect, beforeHour: string, limit: number): Steps<StaleFeedbackHour[]> {
  const rows = yield* all<{ project_id: string; hour: string }>(
    'SELECT project_id, hour FROM feedback_rollup_marks WHERE hour < ? ORDER BY hour, project_id LIMIT ?', [beforeHour, limit]);
  return rows.map((r) => ({ projectId: r.project_id, hour: r.hour }));
}

/** The payload as JSON text: SQLite keeps it as JSONB, PostgreSQL as `json`. */
const PAYLOAD = { sqlite: 'json(payload)', postgres: 'payload::text' } as const;

/**
 * Recomputes one hour's rollup rows and clears its mark; run in one transaction. On PostgreSQL it first takes the
 * hour's advisory lock exclusively (feedback-rollup-marks.ts).
 * @returns false when the hour was not marked any more (another server refreshed it).
 */
export function* refreshFeedbackHour(d: Dialect, projectId: string, hour: string): Steps<boolean> {
  if (d.engine === 'postgres') {
    yield* get(`SELECT pg_advisory_xact_lock(${FEEDBACK_LOCK_SPACE}, ${feedbackLockKey('?::text', '?::text')})`, [projectId, hour]);
  }
  if ((yield* get('SELECT 1 AS x FROM feedback_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour])) === undefined) return false;
  const startMs = Date.parse(`${hour}:00:00.000Z`);
  const rows = yield* all<{ feedback_type: string; payload: string }>(
    `SELECT feedback_type, ${PAYLOAD[d.engine]} AS payload FROM feedback WHERE project_id = ? AND created_at >= ? AND created_at < ?`,
    [projectId, new Date(startMs).toISOString(), new Date(startMs + 3_600_000).toISOString()]);
  const fold = new HourFold();
  for (const r of rows) fold.add(r.feedback_type, JSON.parse(r.payload));
  yield* run('DELETE FROM feedback_rollups WHERE project_id = ? AND hour = ?', [projectId, hour]);
  const cells = fold.cells();
  if (cells.length > 0) {
    yield* insert({
      table: 'feedback_rollups',
      fixed: { project_id: ['text', projectId], hour: ['text', hour] },
      columns: { feedback_type: 'text', path: 'text', present: 'int', count: 'int', total: 'text', lo: 'float8', hi: 'float8', t: 'int', f: 'int' },
      rows: cells.map((c) => [c.type, c.path, c.present, c.count, c.sum === null ? null : JSON.stringify(c.sum), c.lo, c.hi, c.t, c.f]),
    });
  }
  yield* run('DELETE FROM feedback_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour]);
  return true;
}
