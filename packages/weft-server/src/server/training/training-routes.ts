/**
 * Routes of training: `POST /v1/preview/models/{model_id}/log` (spec endpoint 1) stores trajectory groups and
 * answers metrics; `POST /v1/preview/training-jobs` (spec endpoint 4) stores a job as `queued`; and the training
 * reads (extensions of the local server, docs/interface-notes.md "Training reads"): a training job read back, a
 * model's jobs, its stored trajectory groups, the models with trajectories.
 * @module
 */
import { ENDPOINTS } from 'weft-trace/wire';
import { Hono } from 'hono';
import { TrainingJobQueryReq, TrainingJobReadReq, TrajectoryModelsReq, TrajectoryQueryReq } from 'weft-trace/wire';
import { TrainingJobCreateReq, TrajectoryLogReq } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { TrainingStore } from './training-store.js';

/**
 * Builds the training routes over the training store.
 *
 * - log: the body is `{split: "train" | "val" | "test", trajectory_groups: [...]}` (non-empty, each group
 *   non-empty, each trajectory with a numeric `reward`); anything else is 422 `{detail}`. The answer is
 *   `TrajectoryLogRes`: this request's counts and the model's metrics per split and overall.
 * - training jobs: `model_id` must be a UUID, `trajectory_groups` non-empty, and `experimental_config` within
 *   the ranges documented on `ExperimentalTrainingConfig`; otherwise 422 `{detail}` with one item per bad
 *   field. Answers `{id, model_id, status: "queued", created_at}`.
 *
 * The reads (all POST with a JSON body, as the interface's endpoints are; a bad body is 422 `{detail}`):
 * - `/v1/preview/training-jobs/read` `{id}`: the job (`TrainingJobRecord`), 404 `{detail}` when unknown;
 * - `/v1/preview/training-jobs/query` `{model_id}`: `{jobs}`, oldest first;
 * - `/v1/preview/models/{model_id}/trajectories/query` `{split?}`: `{model_id, groups}` in logging order;
 * - `/v1/preview/models/query` `{}`: `{models}`, the most recently logged first.
 *
 * @param training - where trajectories and jobs are stored.
 */
export function trainingRoutes(training: TrainingStore): Hono {
  const app = new Hono();
  const { reads } = training;
  postJson(app, ENDPOINTS.trajectoryLog, TrajectoryLogReq, (body, c) =>
    training.logTrajectories(c.req.param('model_id')!, body));
  postJson(app, ENDPOINTS.trainingJobCreate, TrainingJobCreateReq, (body) => training.createJob(body));
  postJson(app, ENDPOINTS.trainingJobRead, TrainingJobReadReq, async ({ id }) => {
    const job = await reads.job(id);
    if (job === undefined) throw new HttpError(404, `training job ${JSON.stringify(id)} not found`);
    return job;
  });
  postJson(app, ENDPOINTS.trainingJobQuery, TrainingJobQueryReq, async (body) =>
    ({ jobs: await reads.jobs(body.model_id) }));
  postJson(app, ENDPOINTS.trajectoryQuery, TrajectoryQueryReq, async (body, c) => {
    const modelId = c.req.param('model_id')!;
    return { model_id: modelId, groups: await reads.groups(modelId, body.split ?? null) };
  });
  postJson(app, ENDPOINTS.trajectoryModels, TrajectoryModelsReq, async () => ({ models: await reads.models() }));
  return app;
}
