/**
 * Trajectories and training jobs of one database (spec endpoints 1 and 4). The only code that runs SQL on
 * `trajectories` and `training_jobs`, for both engines.
 * @module
 */
import { newId } from 'weft-trace/wire';
import type { z } from 'zod';
import type { TrainingJobCreateReq, TrajectoryLogReq, TrajectoryLogRes } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { insert, run, type Steps } from '../db/sql-steps.js';
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

const INSERT_JOB_SQL = `INSERT INTO training_jobs
  (id, model_id, status, experimental_config, trajectory_groups, group_count, trajectory_count, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** Stores the groups of a log request and computes the model's metrics afterwards (see {@link TrainingStore.logTrajectories}). */
function* logTrajectories(d: Dialect, modelId: string, log: TrajectoryLog): Steps<TrajectoryLogRes> {
  const rows: unknown[][] = [];
  for (const group of log.trajectory_groups) {
    const groupId = newId();
    group.trajectories.forEach((t, i) => rows.push([groupId, i, t.reward, t.messages_and_choices?.length ?? 0, d.json(t.metrics ?? {}), d.json(t)]));
  }
  yield* insert({
    table: 'trajectories',
    fixed: { model_id: ['text', modelId], split: ['text', log.split], logged_at: ['text', new Date().toISOString()] },
    columns: { group_id: 'text', position: 'int', reward: 'float8', message_count: 'int', metrics: 'json', trajectory: 'json' },
    rows,
  });
  return {
    model_id: modelId,
    split: log.split,
    logged: { trajectory_count: rows.length, group_count: log.trajectory_groups.length },
    metrics: {
      train: yield* trajectoryMetrics(d, modelId, 'train'),
      val: yield* trajectoryMetrics(d, modelId, 'val'),
      test: yield* trajectoryMetrics(d, modelId, 'test'),
      overall: yield* trajectoryMetrics(d, modelId, null),
    },
  };
}

/** Stores a training job with status `queued` (see {@link TrainingStore.createJob}). */
function* createJob(d: Dialect, job: TrainingJobInput): Steps<TrainingJob> {
  const out: TrainingJob = { id: newId(), model_id: job.model_id, status: 'queued', created_at: new Date().toISOString() };
  const trajectories = job.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
  const config = job.experimental_config == null ? null : d.json(job.experimental_config);
  yield* run(INSERT_JOB_SQL, [out.id, out.model_id, out.status, config, d.json(job.trajectory_groups), job.trajectory_groups.length, trajectories, out.created_at]);
  return out;
}

/** Trajectories of every model and training jobs in one database (SQLite: the tables of migration 4; PostgreSQL's). */
export class TrainingStore<W extends Wait = Wait> {
  /** Reads of the extension endpoints (jobs, stored groups, models). */
  readonly reads: TrainingReads<W>;

  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {
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
  logTrajectories(modelId: string, log: TrajectoryLog): Out<W, TrajectoryLogRes> {
    return this.db.transaction(logTrajectories, modelId, log);
  }

  /**
   * Stores a training job with status `queued`.
   * @returns `{id, model_id, status, created_at}`.
   * @see spec endpoint 4, "Create training job"
   */
  createJob(job: TrainingJobInput): Out<W, TrainingJob> {
    return this.db.run(createJob, job);
  }
}
