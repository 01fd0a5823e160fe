/**
 * The training reads of the PostgreSQL store (extension endpoints), answering what the SQLite `TrainingReads` does.
 * @module
 */
import type { Split } from '../../schema/trajectories.js';
import type { StoredTrajectoryGroup, TrainingJobRecord, TrajectoryModel } from '../../schema/training-reads.js';
import { type PgDatabase, pgRows } from '../db/pg-database.js';
import { groupsOf, JOB_COLUMNS, jobRecord, MODELS_SQL, modelsOf, type JobRow, type TrajectoryRow } from './training-reads.js';

/** `JOB_COLUMNS` with the JSON config as text and the counts as numbers. */
const PG_JOB_COLUMNS = JOB_COLUMNS.replace('experimental_config', 'experimental_config::text AS experimental_config');

/** The PostgreSQL reads over the store's pool. */
export class PgTrainingReads {
  constructor(private readonly db: PgDatabase) {}

  async job(id: string): Promise<TrainingJobRecord | undefined> {
    const [row] = await pgRows<JobRow>(this.db.pool, `SELECT ${PG_JOB_COLUMNS} FROM training_jobs WHERE id = $1`, [id]);
    return row && jobRecord(row);
  }

  async jobs(modelId: string): Promise<TrainingJobRecord[]> {
    return (await pgRows<JobRow>(this.db.pool, `SELECT ${PG_JOB_COLUMNS} FROM training_jobs WHERE model_id = $1 ORDER BY created_at, id`, [modelId])).map(jobRecord);
  }

  async groups(modelId: string, split: Split | null): Promise<StoredTrajectoryGroup[]> {
    const rows = await pgRows<TrajectoryRow>(
      this.db.pool,
      'SELECT group_id, split, logged_at, trajectory::text AS trajectory FROM trajectories WHERE model_id = $1 AND ($2::text IS NULL OR split = $2::text) ORDER BY logged_at, group_id, position',
      [modelId, split],
    );
    return groupsOf(rows);
  }

  async models(): Promise<TrajectoryModel[]> {
    return modelsOf(await pgRows<TrajectoryModel>(this.db.pool, MODELS_SQL));
  }
}
