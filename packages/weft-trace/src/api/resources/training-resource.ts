/**
 * Reinforcement-learning preview endpoints: trajectory logs (spec endpoint 1) and training jobs (endpoint 4).
 * @module
 */
import { APIResource } from '../core/resource.js';
import { ENDPOINTS } from '../../schema/endpoints.js';
import { fillPath } from '../core/path.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import {
  TrainingJobCreateReq,
  TrainingJobCreateRes,
  TrajectoryLogReq,
  TrajectoryLogRes,
} from '../../schema/trajectories.js';
import {
  TrainingJobListRes,
  TrainingJobRecord,
  TrajectoryModelListRes,
  TrajectoryQueryReq,
  TrajectoryQueryRes,
} from '../../schema/training-reads.js';

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

  /**
   * The trajectory groups stored for a model (a `weft serve` extension, not in the interface spec), in logging
   * order, each with its `group_id`, `split` and `logged_at` (the time of the log request that stored it).
   * @param body - `{split}` for one split; all splits when absent.
   * @throws {RequestValidationError} (as a rejection) for a split other than train / val / test.
   * @throws {APIError} (or a subclass) when the server answers an error (404 from a server without the extension).
   * @see docs/interface-notes.md, "Training reads"
   */
  async query(modelId: string, body: TrajectoryQueryReq = {}, opts?: RequestOptions): Promise<TrajectoryQueryRes> {
    const req = checkRequest(TrajectoryQueryReq, body, 'trajectory query');
    return this.transport.post(fillPath(ENDPOINTS.trajectoryQuery, { model_id: modelId }), req, TrajectoryQueryRes, opts);
  }

  /**
   * The models that have trajectories, with counts and first / last logging time, the most recent first (a
   * `weft serve` extension).
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see docs/interface-notes.md, "Training reads"
   */
  async models(opts?: RequestOptions): Promise<TrajectoryModelListRes> {
    return this.transport.post(ENDPOINTS.trajectoryModels, {}, TrajectoryModelListRes, opts);
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

  /**
   * Reads a training job back (a `weft serve` extension): `status` (`queued`: the local server never trains,
   * `status_detail` says so), group and trajectory counts, `created_at`, `experimental_config`.
   * @throws {NotFoundError} (as a rejection) when no job has this id.
   * @throws {APIError} (or a subclass) for any other error answer.
   * @see docs/interface-notes.md, "Training reads"
   */
  async retrieve(jobId: string, opts?: RequestOptions): Promise<TrainingJobRecord> {
    return this.transport.post(ENDPOINTS.trainingJobRead, { id: jobId }, TrainingJobRecord, opts);
  }

  /**
   * The training jobs of a model, oldest first (a `weft serve` extension).
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see docs/interface-notes.md, "Training reads"
   */
  async list(modelId: string, opts?: RequestOptions): Promise<TrainingJobListRes> {
    return this.transport.post(ENDPOINTS.trainingJobQuery, { model_id: modelId }, TrainingJobListRes, opts);
  }
}
