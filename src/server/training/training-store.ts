/**
 * Trajectories and training jobs of one database (spec endpoints 1 and 4). The only code that runs SQL on
 * `trajectories` and `training_jobs`.
 * @module
 */
import type Database from 'better-sqlite3';
import { newId } from '../../internal/ids.js';
import type { z } from 'zod';
import type { TrainingJobCreateReq, TrajectoryLogReq, TrajectoryLogRes } from '../../schema/trajectories.js';
import { trajectoryMetrics } from './trajectory-metrics.js';
import { TrainingReads } from './training-reads.js';

/** A validated log body (zod output). */
export type TrajectoryLog = z.output<typeof TrajectoryLogReq>;

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

const INSERT_TRAJECTORY_SQL = `INSERT INTO trajectories
  (model_id, split, group_id, position, reward, message_count, metrics, trajectory, logged_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const INSERT_JOB_SQL = `INSERT INTO training_jobs
  (id, model_id, status, experimental_config, trajectory_groups, group_count, trajectory_count, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** Trajectories of every model and training jobs in one SQLite database (the tables of migration 4). */
export class TrainingStore {
  /** Reads of the extension endpoints (jobs, stored groups, models). */
  readonly reads: TrainingReads;

  /** @param db - a read-write connection with migration 4 applied. */
  constructor(private readonly db: Database.Database) {
    this.reads = new TrainingReads(db);
  }

  /**
   * Stores the groups of a log request (each group gets a new UUIDv7 group id) and computes the model's
   * metrics afterwards, all in one transaction.
   *
   * @param modelId - the model the trajectories were produced by (the path parameter).
   * @param log - split and trajectory groups.
   * @returns the counts of this request and the model's metrics per split and overall.
   * @see spec endpoint 1, "Log trajectories"
   */
  logTrajectories(modelId: string, log: TrajectoryLog): TrajectoryLogRes {
    return this.db.transaction((): TrajectoryLogRes => {
      const insert = this.db.prepare(INSERT_TRAJECTORY_SQL);
      const now = new Date().toISOString();
      let count = 0;
      for (const group of log.trajectory_groups) {
        const groupId = newId();
        group.trajectories.forEach((t, i) => {
          const messages = t.messages_and_choices?.length ?? 0;
          insert.run(modelId, log.split, groupId, i, t.reward, messages, JSON.stringify(t.metrics ?? {}), JSON.stringify(t), now);
          count++;
        });
      }
      const metricsOf = (split: TrajectoryLog['split'] | null) => trajectoryMetrics(this.db, modelId, split);
      return {
        model_id: modelId,
        split: log.split,
        logged: { trajectory_count: count, group_count: log.trajectory_groups.length },
        metrics: { train: metricsOf('train'), val: metricsOf('val'), test: metricsOf('test'), overall: metricsOf(null) },
      };
    })();
  }

  /**
   * Stores a training job with status `queued`.
   * @returns `{id, model_id, status, created_at}`.
   * @see spec endpoint 4, "Create training job"
   */
  createJob(job: TrainingJobInput): TrainingJob {
    const out: TrainingJob = { id: newId(), model_id: job.model_id, status: 'queued', created_at: new Date().toISOString() };
    const trajectories = job.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
    const config = job.experimental_config == null ? null : JSON.stringify(job.experimental_config);
    this.db.prepare(INSERT_JOB_SQL).run(
      out.id, out.model_id, out.status, config, JSON.stringify(job.trajectory_groups),
      job.trajectory_groups.length, trajectories, out.created_at,
    );
    return out;
  }
}
