/**
 * SQLite persistence of training jobs (spec endpoint 4): stored `queued`, with their trajectory groups.
 * @module
 */
import type Database from 'better-sqlite3';
import { newId } from '../internal/ids.js';
import type { z } from 'zod';
import type { TrainingJobCreateReq } from '../schema/trajectories.js';

/** A validated training-job body (zod output). */
export type TrainingJobInput = z.output<typeof TrainingJobCreateReq>;

/** A stored training job as answered to its creator. */
export interface TrainingJob {
  /** UUIDv7. */
  id: string;
  model_id: string;
  /** Always `queued`: the local server records jobs and never runs them. */
  status: 'queued';
  /** ISO 8601 UTC. */
  created_at: string;
}

const INSERT_SQL = `INSERT INTO training_jobs
  (id, model_id, status, experimental_config, trajectory_groups, group_count, trajectory_count, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** Training jobs in one SQLite database (the `training_jobs` table of migration 4). */
export class TrainingJobStore {
  constructor(private readonly db: Database.Database) {}

  /**
   * Stores a job with status `queued`.
   * @returns `{id, model_id, status, created_at}`.
   * @see spec endpoint 4, "Create training job"
   */
  create(job: TrainingJobInput): TrainingJob {
    const out: TrainingJob = { id: newId(), model_id: job.model_id, status: 'queued', created_at: new Date().toISOString() };
    const trajectories = job.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
    const config = job.experimental_config == null ? null : JSON.stringify(job.experimental_config);
    this.db.prepare(INSERT_SQL).run(
      out.id, out.model_id, out.status, config, JSON.stringify(job.trajectory_groups),
      job.trajectory_groups.length, trajectories, out.created_at,
    );
    return out;
  }
}
