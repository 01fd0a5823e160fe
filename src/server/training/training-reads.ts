/**
 * The training reads of the SQLite store (extension endpoints): a job by id, a model's jobs, its stored trajectory
 * groups, the models with trajectories; and the row mapping the PostgreSQL reads share.
 * @module
 */
import type Database from 'better-sqlite3';
import type { Split } from '../../schema/trajectories.js';
import type { StoredTrajectoryGroup, TrainingJobRecord, TrajectoryModel } from '../../schema/training-reads.js';

/** What `status_detail` says of every job on this server. */
export const NEVER_TRAINS = 'the local weft server records training jobs and never runs them; export the groups to train elsewhere';

/** A `training_jobs` row as the reads select it (config as JSON text). */
export interface JobRow {
  id: string;
  model_id: string;
  status: string;
  created_at: string;
  group_count: number;
  trajectory_count: number;
  experimental_config: string | null;
}

/** A `trajectories` row as the reads select it (the trajectory as JSON text). */
export interface TrajectoryRow {
  group_id: string;
  split: Split;
  logged_at: string;
  trajectory: string;
}

/** The columns a job read selects; `created_at` and `id` order a model's jobs. */
export const JOB_COLUMNS = 'id, model_id, status, created_at, group_count, trajectory_count, experimental_config';

/** Groups and models: the same SQL on both engines (PostgreSQL's bound as `$n`, SQLite's as `?`). */
export const MODELS_SQL = `SELECT model_id, count(*) AS trajectory_count, count(DISTINCT group_id) AS group_count,
  min(logged_at) AS first_logged_at, max(logged_at) AS last_logged_at FROM trajectories GROUP BY model_id ORDER BY max(logged_at) DESC, model_id`;

/** A job row as answered. */
export function jobRecord(row: JobRow): TrainingJobRecord {
  const config = row.experimental_config == null ? null : (JSON.parse(row.experimental_config) as Record<string, unknown>);
  return { ...row, group_count: Number(row.group_count), trajectory_count: Number(row.trajectory_count), status_detail: NEVER_TRAINS, experimental_config: config };
}

/** Trajectory rows (in group, then position order) folded into their groups. */
export function groupsOf(rows: TrajectoryRow[]): StoredTrajectoryGroup[] {
  const out: StoredTrajectoryGroup[] = [];
  for (const r of rows) {
    let g = out.at(-1);
    if (g?.group_id !== r.group_id) out.push((g = { group_id: r.group_id, split: r.split, logged_at: r.logged_at, trajectories: [] }));
    g.trajectories.push(JSON.parse(r.trajectory) as StoredTrajectoryGroup['trajectories'][number]);
  }
  return out;
}

/** Model rows with their counts as numbers. */
export function modelsOf(rows: TrajectoryModel[]): TrajectoryModel[] {
  return rows.map((m) => ({ ...m, trajectory_count: Number(m.trajectory_count), group_count: Number(m.group_count) }));
}

/** The SQLite reads over one connection. */
export class TrainingReads {
  constructor(private readonly db: Database.Database) {}

  job(id: string): TrainingJobRecord | undefined {
    const row = this.db.prepare(`SELECT ${JOB_COLUMNS} FROM training_jobs WHERE id = ?`).get(id) as JobRow | undefined;
    return row && jobRecord(row);
  }

  jobs(modelId: string): TrainingJobRecord[] {
    return (this.db.prepare(`SELECT ${JOB_COLUMNS} FROM training_jobs WHERE model_id = ? ORDER BY created_at, id`).all(modelId) as JobRow[]).map(jobRecord);
  }

  groups(modelId: string, split: Split | null): StoredTrajectoryGroup[] {
    const rows = this.db
      .prepare('SELECT group_id, split, logged_at, trajectory FROM trajectories WHERE model_id = ? AND (? IS NULL OR split = ?) ORDER BY logged_at, group_id, position')
      .all(modelId, split, split) as TrajectoryRow[];
    return groupsOf(rows);
  }

  models(): TrajectoryModel[] {
    return modelsOf(this.db.prepare(MODELS_SQL).all() as TrajectoryModel[]);
  }
}
