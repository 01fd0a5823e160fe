/**
 * The rollup job's steps, written once for both engines: the stale hours (marked by writes, rollup-marks.ts), and one
 * hour's rollup recomputed from the calls table by the overview's own live statements (overview-sql.ts) and stored in
 * place of the old, its mark cleared, in one transaction.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, get, insert, run, type Steps } from '../../db/sql-steps.js';
import { histogramOf, piecesOf } from './overview-pieces.js';
import { HOUR_MS } from './overview-plan.js';
import { rootFigures, rootUsage } from './overview-sql.js';
import { HOUR_LOCK_SPACE, hourLockKey } from '../write/rollup-marks.js';
import { histogramText } from '../../stats/latency-histogram.js';
import { type StaleHour, staleHoursIn } from '../../db/stale-hours.js';

export type { StaleHour };

/** The oldest stale hours before `beforeHour` (the hour in progress is left: writes keep marking it), at most `limit`. */
export function* staleHours(_: Dialect, beforeHour: string, limit: number): Steps<StaleHour[]> {
  return yield* staleHoursIn('call_rollup_marks', beforeHour, limit);
}

/**
 * Recomputes one hour's rollup rows and clears its mark; run in one transaction. On PostgreSQL it first takes the
 * hour's advisory lock exclusively: writes of the hour in flight commit before it reads, later ones wait and mark the
 * hour again after it commits (rollup-marks.ts).
 * @returns false when the hour was not marked any more (another server refreshed it).
 */
export function* refreshHour(d: Dialect, projectId: string, hour: string): Steps<boolean> {
  if (d.engine === 'postgres') yield* get(`SELECT pg_advisory_xact_lock(${HOUR_LOCK_SPACE}, ${hourLockKey('?::text', '?::text')})`, [projectId, hour]);
  if ((yield* get('SELECT 1 AS x FROM call_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour])) === undefined) return false;
  const startMs = Date.parse(`${hour}:00:00.000Z`);
  const q = { projectId, ranges: [[startMs, startMs + HOUR_MS]] as [number, number][], edges: [startMs, startMs + HOUR_MS], withModels: true };
  const pieces = piecesOf(yield* rootFigures(d, q), yield* rootUsage(d, q));
  yield* run('DELETE FROM call_rollups WHERE project_id = ? AND hour = ?', [projectId, hour]);
  if (pieces.length > 0) {
    yield* insert({
      table: 'call_rollups',
      fixed: { project_id: ['text', projectId], hour: ['text', hour] },
      columns: { op_name: 'text', model: 'text', calls: 'int', errors: 'int', descendant_errors: 'int', histogram: 'text', usage: 'text' },
      rows: pieces.map((p) => [p.op, p.model, p.calls, p.errors, p.descendantErrors, histogramText(histogramOf(p)), p.usage ? JSON.stringify(p.usage) : null]),
    });
  }
  // SQLite: the roots still running, whose end written alone must mark the hour again (sqlite-call-flush.ts; PostgreSQL's
  // upsert marks the hour of every root it writes)
  if (d.engine === 'sqlite') yield* run('DELETE FROM call_rollup_open WHERE project_id = ? AND hour = ?', [projectId, hour]);
  if (d.engine === 'sqlite') yield* run(`INSERT INTO call_rollup_open (project_id, id, hour) SELECT project_id, id, ? FROM calls
    WHERE project_id = ? AND parent_id IS NULL AND started_at >= ? AND started_at < ? AND ended_at IS NULL`,
  [hour, projectId, new Date(startMs).toISOString(), new Date(startMs + HOUR_MS).toISOString()]);
  yield* run('DELETE FROM call_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour]);
  return true;
}
