/**
 * Trajectories and training jobs of one PostgreSQL database (spec endpoints 1 and 4), with the answers of the
 * SQLite `TrainingStore`. The only code that runs SQL on `trajectories` and `training_jobs` there.
 * @module
 */
import { newId } from '../../internal/ids.js';
import type { TrajectoryLogRes } from '../../schema/trajectories.js';
import type { PgDatabase } from '../db/pg-database.js';
import { pgJsonText } from '../db/pg-json.js';
import { pgTrajectoryMetrics } from './pg-trajectory-metrics.js';
import { PgTrainingReads } from './pg-training-reads.js';
import type { TrainingJob, TrainingJobInput, TrajectoryLog } from './training-store.js';

/** Trajectories per INSERT statement (each statement binds one array per column). */
const INSERT_CHUNK = 5_000;

const INSERT_TRAJECTORIES_SQL = `INSERT INTO trajectories
  (model_id, split, group_id, position, reward, message_count, metrics, trajectory, logged_at)
  SELECT $1, $2, g, p, r, m, mt, t, $3
  FROM unnest($4::text[], $5::int[], $6::float8[], $7::int[], $8::json[], $9::json[]) AS u(g, p, r, m, mt, t)`;

const INSERT_JOB_SQL = `INSERT INTO training_jobs
  (id, model_id, status, experimental_config, trajectory_groups, group_count, trajectory_count, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** Trajectories of every model and training jobs in one PostgreSQL database. */
export class PgTrainingStore {
  /** Reads of the extension endpoints (jobs, stored groups, models). */
  readonly reads: PgTrainingReads;

  /** @param db - the migrated database. */
  constructor(private readonly db: PgDatabase) {
    this.reads = new PgTrainingReads(db);
  }

  /**
   * Stores the groups of a log request (each group gets a new UUIDv7 group id) with multi-row inserts and
   * computes the model's metrics afterwards, in one transaction; the contract of `TrainingStore.logTrajectories`.
   *
   * @param modelId - the model the trajectories were produced by (the path parameter).
   * @returns the counts of this request and the model's metrics per split and overall.
   * @see spec endpoint 1, "Log trajectories"
   */
  async logTrajectories(modelId: string, log: TrajectoryLog): Promise<TrajectoryLogRes> {
    const cols = { g: [] as string[], p: [] as number[], r: [] as number[], m: [] as number[], mt: [] as string[], t: [] as string[] };
    for (const group of log.trajectory_groups) {
      const groupId = newId();
      group.trajectories.forEach((t, i) => {
        cols.g.push(groupId);
        cols.p.push(i);
        cols.r.push(t.reward);
        cols.m.push(t.messages_and_choices?.length ?? 0);
        cols.mt.push(pgJsonText(t.metrics ?? {}));
        cols.t.push(pgJsonText(t));
      });
    }
    const now = new Date().toISOString();
    return this.db.transaction(async (tx): Promise<TrajectoryLogRes> => {
      for (let at = 0; at < cols.g.length; at += INSERT_CHUNK) {
        const part = <T>(xs: T[]): T[] => xs.slice(at, at + INSERT_CHUNK);
        await tx.query(INSERT_TRAJECTORIES_SQL, [modelId, log.split, now, part(cols.g), part(cols.p), part(cols.r), part(cols.m), part(cols.mt), part(cols.t)]);
      }
      const metricsOf = (split: TrajectoryLog['split'] | null) => pgTrajectoryMetrics(tx, modelId, split);
      return {
        model_id: modelId,
        split: log.split,
        logged: { trajectory_count: cols.g.length, group_count: log.trajectory_groups.length },
        metrics: { train: await metricsOf('train'), val: await metricsOf('val'), test: await metricsOf('test'), overall: await metricsOf(null) },
      };
    });
  }

  /**
   * Stores a training job with status `queued`; the contract of `TrainingStore.createJob`.
   * @returns `{id, model_id, status, created_at}`.
   * @see spec endpoint 4, "Create training job"
   */
  async createJob(job: TrainingJobInput): Promise<TrainingJob> {
    const out: TrainingJob = { id: newId(), model_id: job.model_id, status: 'queued', created_at: new Date().toISOString() };
    const trajectories = job.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
    const config = job.experimental_config == null ? null : pgJsonText(job.experimental_config);
    await this.db.pool.query(INSERT_JOB_SQL, [
      out.id, out.model_id, out.status, config, pgJsonText(job.trajectory_groups),
      job.trajectory_groups.length, trajectories, out.created_at,
    ]);
    return out;
  }
}
