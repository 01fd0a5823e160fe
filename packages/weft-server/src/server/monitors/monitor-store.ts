/**
 * Monitors of one database (a weft extension): created, listed, removed, and their progress saved. The only code that
 * runs SQL on `monitors`, for both engines (SQLite migration 10, PostgreSQL migration 9).
 * @module
 */
import type { z } from 'zod';
import { newId } from 'weft-trace/wire';
import type { Monitor, MonitorCreateReq } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, get, run, type Steps } from '../db/sql-steps.js';

/** A validated create body (zod output). */
export type MonitorInput = z.output<typeof MonitorCreateReq>;

type MonitorRow = Omit<Monitor, 'options'> & { options: string };

const COLUMNS = 'id, project_id, op_name, scorer, sample_rate, options, created_at, cursor_ended_at, cursor_call_id';

const toMonitor = (row: MonitorRow): Monitor => ({ ...row, sample_rate: Number(row.sample_rate), options: JSON.parse(row.options) as Record<string, unknown> });

function* create(_d: Dialect, input: MonitorInput, now: Date): Steps<Monitor> {
  const monitor: Monitor = {
    id: newId(), project_id: input.project_id, op_name: input.op_name, scorer: input.scorer, sample_rate: input.sample_rate,
    options: input.options ?? {}, created_at: now.toISOString(), cursor_ended_at: null, cursor_call_id: null,
  };
  yield* run(`INSERT INTO monitors (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    monitor.id, monitor.project_id, monitor.op_name, monitor.scorer, monitor.sample_rate, JSON.stringify(monitor.options),
    monitor.created_at, null, null,
  ]);
  return monitor;
}

function* list(_d: Dialect, projectId: string | undefined): Steps<Monitor[]> {
  const rows = projectId === undefined
    ? yield* all<MonitorRow>(`SELECT ${COLUMNS} FROM monitors ORDER BY created_at, id`)
    : yield* all<MonitorRow>(`SELECT ${COLUMNS} FROM monitors WHERE project_id = ? ORDER BY created_at, id`, [projectId]);
  return rows.map(toMonitor);
}

function* remove(_d: Dialect, projectId: string, id: string): Steps<boolean> {
  return (yield* run('DELETE FROM monitors WHERE project_id = ? AND id = ?', [projectId, id])) > 0;
}

function* saveProgress(_d: Dialect, projectId: string, id: string, endedAt: string, callId: string): Steps<boolean> {
  yield* run(`UPDATE monitors SET cursor_ended_at = ?, cursor_call_id = ? WHERE project_id = ? AND id = ?
    AND (cursor_ended_at IS NULL OR cursor_ended_at < ? OR (cursor_ended_at = ? AND cursor_call_id < ?))`,
  [endedAt, callId, projectId, id, endedAt, endedAt, callId]);
  return (yield* get('SELECT 1 AS found FROM monitors WHERE project_id = ? AND id = ?', [projectId, id])) !== undefined;
}

/** Monitors of every project in one database. */
export class MonitorStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /** Stores a new monitor (UUIDv7 id, `created_at` from `now`, no progress yet). @returns the stored monitor. */
  create(input: MonitorInput, now: Date = new Date()): Out<W, Monitor> {
    return this.db.run(create, input, now);
  }

  /** The monitors of a project, or of every project when `projectId` is undefined; oldest first. */
  list(projectId?: string): Out<W, Monitor[]> {
    return this.db.run(list, projectId);
  }

  /** Removes a monitor (its feedback stays). @returns whether it existed. */
  remove(projectId: string, id: string): Out<W, boolean> {
    return this.db.run(remove, projectId, id);
  }

  /**
   * Moves a monitor's progress to the ended call `(endedAt, callId)`, only forward: a cursor before the stored one
   * (another worker's older page) changes nothing. @returns whether the monitor exists.
   */
  saveProgress(projectId: string, id: string, endedAt: string, callId: string): Out<W, boolean> {
    return this.db.transaction(saveProgress, projectId, id, endedAt, callId);
  }
}
