/**
 * The feedback rollup job's steps, written once for both engines: the stale hours (marked by writes,
 * feedback-rollup-marks.ts); a marked hour's `gen`; its rows a slice at a time (each slice a short read of its own, so
 * the job never holds the database or, on SQLite, the event loop for a whole hour); and the hour's new rollup stored in
 * place of the old, with its mark cleared, in one short transaction, only if the mark's `gen` is unchanged.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, get, insert, run, type Steps } from '../db/sql-steps.js';
import { encodeValues, type RollupCell } from './rollup-fold.js';
import { type StaleHour, staleHoursIn } from '../db/stale-hours.js';

/** A stale hour of a project. */
export type StaleFeedbackHour = StaleHour;

/** The oldest stale hours before `beforeHour` (the hour in progress is left: writes keep marking it), at most `limit`. */
export function* staleFeedbackHours(_: Dialect, beforeHour: string, limit: number): Steps<StaleFeedbackHour[]> {
  return yield* staleHoursIn('feedback_rollup_marks', beforeHour, limit);
}

/** The `gen` of an hour's mark, or undefined when the hour is not marked. */
export function* markGen(_: Dialect, projectId: string, hour: string): Steps<number | undefined> {
  const row = yield* get<{ gen: number | string }>('SELECT gen FROM feedback_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour]);
  return row === undefined ? undefined : Number(row.gen);
}

/** Where a slice of an hour's rows ends: its last row's `created_at` and `id`. */
export type HourCursor = { created_at: string; id: string };

/** One slice of an hour's rows: type, payload (JSON text), and the cursor. */
export type HourRow = HourCursor & { feedback_type: string; payload: string };

/** The payload as JSON text: SQLite keeps it as JSONB, PostgreSQL as `json`. */
const PAYLOAD = { sqlite: 'json(payload)', postgres: 'payload::text' } as const;

/** The next `limit` rows of an hour of a project after `after` (in `created_at`, `id` order; from the start without). */
export function* hourRows(d: Dialect, projectId: string, hour: string, after: HourCursor | null, limit: number): Steps<HourRow[]> {
  const startMs = Date.parse(`${hour}:00:00.000Z`);
  const params: unknown[] = [projectId, new Date(startMs).toISOString(), new Date(startMs + 3_600_000).toISOString()];
  let where = 'project_id = ? AND created_at >= ? AND created_at < ?';
  if (after) {
    where += ' AND (created_at > ? OR (created_at = ? AND id > ?))';
    params.push(after.created_at, after.created_at, after.id);
  }
  params.push(limit);
  return yield* all<HourRow>(`SELECT created_at, id, feedback_type, ${PAYLOAD[d.engine]} AS payload FROM feedback
    WHERE ${where} ORDER BY created_at, id LIMIT ?`, params);
}

/**
 * Stores an hour's rollup in place of the old and clears its mark, if the mark's `gen` is still `gen`; run in one
 * transaction.
 * @returns false when the hour was marked again meanwhile (or refreshed by another server): nothing stored.
 */
export function* storeHour(_: Dialect, projectId: string, hour: string, gen: number, cells: readonly RollupCell[]): Steps<boolean> {
  if ((yield* run('DELETE FROM feedback_rollup_marks WHERE project_id = ? AND hour = ? AND gen = ?', [projectId, hour, gen])) === 0) return false;
  yield* run('DELETE FROM feedback_rollups WHERE project_id = ? AND hour = ?', [projectId, hour]);
  if (cells.length > 0) {
    yield* insert({
      table: 'feedback_rollups',
      fixed: { project_id: ['text', projectId], hour: ['text', hour] },
      columns: { feedback_type: 'text', path: 'text', present: 'int', count: 'int', total: 'text', lo: 'float8', hi: 'float8', vals: 'text', t: 'int', f: 'int' },
      rows: cells.map((c) => [c.type, c.path, c.present, c.count, c.sum === null ? null : JSON.stringify(c.sum), c.lo, c.hi, encodeValues(c.values), c.t, c.f]),
    });
  }
  return true;
}
