/**
 * Reinforcement-learning preview endpoints: trajectory logs (spec endpoint 1) and training jobs (endpoint 4).
 * @module
 */
import { APIResource } from '../core/resource.js';
import { ENDPOINTS } from '../../schema/endpoints.js';
import { fillPath } from '../core/path.js';
import { checkRequest } from '../../schema/check.js';
import type { RequestOptions } from '../core/transport.js';
import {
  TrainingJobCreateReq,
  TrainingJobCreateRes,
  TrajectoryLogReq,
  TrajectoryLogRes,
} from '../../schema/trajectories.js';

/** Trajectory logs of a model (preview; Bearer auth). */
export class TrajectoriesResource extends APIResource {
  /**
   * Stores trajectory groups for a split and answers the metrics computed over the model's stored
   * trajectories: per split (`train`, `val`, `test`) and `overall`, trajectory and group counts, reward
   * mean / std / min / max, mean per-group reward std, mean message count, and the mean of each numeric
   * `metrics` key.
   * @example
   * const res = await client.trajectories.log(modelId, { split: 'train', trajectory_groups: [{ trajectories: [{ reward: 1, messages_and_choices: [] }] }] });
   * console.log(res.metrics.train.reward_mean);
   * @param modelId - the model (path parameter; percent-encoded).
   * @throws {RequestValidationError} (as a rejection) when `body` is invalid (a split other than train/val/test, no groups,
   *   an empty group, a trajectory without a numeric `reward`) or `modelId` is empty, before sending.
   * @throws {APIError} (or a subclass, e.g. `AuthenticationError`) when the server answers an error.
   * @remarks Not retried unless `opts.maxRetries` says so: the endpoint is not idempotent, and a retry after
   *   a lost answer would store the trajectories twice (and skew the metrics).
   * @see The interface spec, endpoint 1 "Log trajectories"
   */
  async log(modelId: string, body: TrajectoryLogReq, opts?: RequestOptions): Promise<TrajectoryLogRes> {
    const url = fillPath(ENDPOINTS.trajectoryLog, { model_id: modelId });
    const req = checkRequest(TrajectoryLogReq, body, 'trajectory log');
    return this.transport.post(url, req, TrajectoryLogRes, { maxRetries: 0, ...opts });
  }
}

/** Training jobs (preview; Bearer auth). */
export class TrainingJobsResource extends APIResource {
  /**
   * Creates a training job from trajectory groups. The local server stores it with status `queued`.
   * @example
   * const job = await client.trainingJobs.create({ model_id: modelId, trajectory_groups, experimental_config: { learning_rate: 1e-5 } });
   * @returns `{id}` (UUID), plus `model_id`, `status` and `created_at` from the local server.
   * @throws {RequestValidationError} (as a rejection) when `body` is invalid (`model_id` not a UUID, no groups, a config value
   *   out of its documented range, an unknown config key), before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @remarks Not retried unless `opts.maxRetries` says so: a retry after a lost answer would create a second job.
   * @see The interface spec, endpoint 4 "Create training job"
   */
  async create(body: TrainingJobCreateReq, opts?: RequestOptions): Promise<TrainingJobCreateRes> {
    const req = checkRequest(TrainingJobCreateReq, body, 'training job');
    return this.transport.post(ENDPOINTS.trainingJobCreate, req, TrainingJobCreateRes, { maxRetries: 0, ...opts });
  }
}
