/**
 * The training reads (extension endpoints), for both engines: a job by id, a model's jobs, its stored trajectory
 * groups, the models with trajectories.
 * @module
 */
import type { Split } from 'weft-trace/wire';
import type { StoredTrajectoryGroup, TrainingJobRecord, TrajectoryModel } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, get, type Steps } from '../db/sql-steps.js';

/** What `status_detail` says of every job on this server. */
export const NEVER_TRAINS = 'the local weft server records training jobs and never runs them; export the groups to train elsewhere';

/** A `training_jobs` row as the reads select it (config as JSON text). */
interface JobRow {
  id: string;
  model_id: string;
  status: string;
  created_at: string;
  group_count: number;
  trajectory_count: number;
  experimental_config: string | null;
}

/** A `trajectories` row as the reads select it (the trajectory as JSON text). */
interface TrajectoryRow {
  group_id: string;
  split: Split;
  logged_at: string;
  trajectory: string;
}

/** The columns a job read selects; `created_at` and `id` order a model's jobs. */
const JOBS = 'SELECT id, model_id, status, created_at, group_count, trajectory_count, experimental_config FROM training_jobs';

const MODELS_SQL = `SELECT model_id, count(*) AS trajectory_count, count(DISTINCT group_id) AS group_count,
  min(logged_at) AS first_logged_at, max(logged_at) AS last_logged_at FROM trajectories GROUP BY model_id ORDER BY max(logged_at) DESC, model_id`;

/** A job row as answered. */
function jobRecord(row: JobRow): TrainingJobRecord {
  const config = row.experimental_config == null ? null : (JSON.parse(row.experimental_config) as Record<string, unknown>);
  return { ...row, group_count: Number(row.group_count), trajectory_count: Number(row.trajectory_count), status_detail: NEVER_TRAINS, experimental_config: config };
}

/** Trajectory rows (in group, then position order) folded into their groups. */
function groupsOf(rows: TrajectoryRow[]): StoredTrajectoryGroup[] {
  const out: StoredTrajectoryGroup[] = [];
  for (const r of rows) {
    let g = out.at(-1);
    if (g?.group_id !== r.group_id) out.push((g = { group_id: r.group_id, split: r.split, logged_at: r.logged_at, trajectories: [] }));
    g.trajectories.push(JSON.parse(r.trajectory) as StoredTrajectoryGroup['trajectories'][number]);
  }
  return out;
}

function* job(_: Dialect, id: string): Steps<TrainingJobRecord | undefined> {
  const row = yield* get<JobRow>(`${JOBS} WHERE id = ?`, [id]);
  return row && jobRecord(row);
}

function* jobs(_: Dialect, modelId: string): Steps<TrainingJobRecord[]> {
  return (yield* all<JobRow>(`${JOBS} WHERE model_id = ? ORDER BY created_at, id`, [modelId])).map(jobRecord);
}

function* groups(d: Dialect, modelId: string, split: Split | null): Steps<StoredTrajectoryGroup[]> {
  const text = d.typed('?', 'text');
  return groupsOf(yield* all<TrajectoryRow>(`SELECT group_id, split, logged_at, trajectory FROM trajectories
    WHERE model_id = ? AND (${text} IS NULL OR split = ${text}) ORDER BY logged_at, group_id, position`, [modelId, split, split]));
}

function* models(_: Dialect): Steps<TrajectoryModel[]> {
  const rows = yield* all<TrajectoryModel>(MODELS_SQL);
  return rows.map((m) => ({ ...m, trajectory_count: Number(m.trajectory_count), group_count: Number(m.group_count) }));
}

/** The training reads over one database. */
export class TrainingReads<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /** A job by id, or undefined. */
  job(id: string): Out<W, TrainingJobRecord | undefined> {
    return this.db.run(job, id);
  }

  /** The jobs of a model, oldest first. */
  jobs(modelId: string): Out<W, TrainingJobRecord[]> {
    return this.db.run(jobs, modelId);
  }

  /** The stored trajectory groups of a model, of one split or (`null`) of all, in the order they were logged. */
  groups(modelId: string, split: Split | null): Out<W, StoredTrajectoryGroup[]> {
    return this.db.run(groups, modelId, split);
  }

  /** The models with stored trajectories, most recently logged first. */
  models(): Out<W, TrajectoryModel[]> {
    return this.db.run(models);
  }
}
