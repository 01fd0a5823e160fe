/**
 * Extension answers of the local server's training reads: a training job read back, a model's stored
 * trajectory groups, and the models that have trajectories (docs/interface-notes.md, "Training reads").
 * @module
 */
import { z } from 'zod';
import { JsonObject } from './common.js';
import { Split, Trajectory } from './trajectories.js';

/** A stored training job: what its creator was answered, with its counts and config. */
export const TrainingJobRecord = z.looseObject({
  id: z.string(),
  model_id: z.string(),
  /** `queued`: the local server records jobs and never runs them. */
  status: z.string(),
  /** Why the status never changes on this server. */
  status_detail: z.string(),
  /** ISO 8601 UTC. */
  created_at: z.string(),
  group_count: z.number().int(),
  trajectory_count: z.number().int(),
  experimental_config: JsonObject.nullable(),
});
export type TrainingJobRecord = z.infer<typeof TrainingJobRecord>;

/** Body of `POST /v1/preview/training-jobs/read`. */
export const TrainingJobReadReq = z.object({ id: z.string().min(1) });
export type TrainingJobReadReq = z.input<typeof TrainingJobReadReq>;

/** Body of `POST /v1/preview/training-jobs/query`: the jobs of one model. */
export const TrainingJobQueryReq = z.object({ model_id: z.string().min(1) });
export type TrainingJobQueryReq = z.input<typeof TrainingJobQueryReq>;

/** Answer of `POST /v1/preview/training-jobs/query`: the model's jobs, oldest first. */
export const TrainingJobListRes = z.looseObject({ jobs: z.array(TrainingJobRecord) });
export type TrainingJobListRes = z.infer<typeof TrainingJobListRes>;

/** A trajectory group as stored by one log request: its id, split, the request's time (its "step") and trajectories. */
export const StoredTrajectoryGroup = z.looseObject({
  group_id: z.string(),
  split: Split,
  /** ISO 8601 UTC time of the log request that stored it: the groups of one request share it. */
  logged_at: z.string(),
  trajectories: z.array(Trajectory),
});
export type StoredTrajectoryGroup = z.infer<typeof StoredTrajectoryGroup>;

/** Body of `POST /v1/preview/models/{model_id}/trajectories/query`: one split, or all when absent. */
export const TrajectoryQueryReq = z.object({ split: Split.nullish() });
export type TrajectoryQueryReq = z.input<typeof TrajectoryQueryReq>;

/** Answer of the trajectory query: the model's groups in logging order (time, then order within a request). */
export const TrajectoryQueryRes = z.looseObject({ model_id: z.string(), groups: z.array(StoredTrajectoryGroup) });
export type TrajectoryQueryRes = z.infer<typeof TrajectoryQueryRes>;

/** One model with trajectories: counts and the first and last logging times. */
export const TrajectoryModel = z.looseObject({
  model_id: z.string(),
  trajectory_count: z.number().int(),
  group_count: z.number().int(),
  first_logged_at: z.string(),
  last_logged_at: z.string(),
});
export type TrajectoryModel = z.infer<typeof TrajectoryModel>;

/** Body of `POST /v1/preview/models/query` (no fields yet). */
export const TrajectoryModelsReq = z.object({});
export type TrajectoryModelsReq = z.input<typeof TrajectoryModelsReq>;

/** Answer of `POST /v1/preview/models/query`: models with trajectories, the most recently logged first. */
export const TrajectoryModelListRes = z.looseObject({ models: z.array(TrajectoryModel) });
export type TrajectoryModelListRes = z.infer<typeof TrajectoryModelListRes>;
