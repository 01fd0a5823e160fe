/**
 * The stale hours of a rollup's mark table (`call_rollup_marks` for the overview, `feedback_rollup_marks` for feedback
 * stats): one reader for both jobs.
 * @module
 */
import type { Dialect } from './dialect.js';
import { all, type Steps } from './sql-steps.js';

/** A stale hour of a project. */
export interface StaleHour {
  projectId: string;
  /** `YYYY-MM-DDTHH` (UTC). */
  hour: string;
}

/** The mark tables: each holds (project_id, hour) of the hours its job must recompute. */
export type MarkTable = 'call_rollup_marks' | 'feedback_rollup_marks';

/** The oldest stale hours of `table` before `beforeHour` (the hour in progress is left: writes keep marking it), at most `limit`. */
export function* staleHoursIn(table: MarkTable, beforeHour: string, limit: number): Steps<StaleHour[]> {
  const rows = yield* all<{ project_id: string; hour: string }>(
    `SELECT project_id, hour FROM ${table} WHERE hour < ? ORDER BY hour, project_id LIMIT ?`, [beforeHour, limit]);
  return rows.map((r) => ({ projectId: r.project_id, hour: r.hour }));
}
