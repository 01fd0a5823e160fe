/**
 * Routes of training: `POST /v1/preview/models/{model_id}/log` (spec endpoint 1) stores trajectory groups and
 * answers metrics; `POST /v1/preview/training-jobs` (spec endpoint 4) stores a job as `queued`.
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { Hono } from 'hono';
import { TrainingJobCreateReq, TrajectoryLogReq } from '../../schema/trajectories.js';
import { readJsonBody } from '../http/request-body.js';
import type { TrainingStore } from './training-store.js';
import { trainingReadRoutes } from './training-read-routes.js';

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
 * @param training - where trajectories and jobs are stored.
 */
export function trainingRoutes(training: TrainingStore): Hono {
  const app = new Hono();

  app.post(ENDPOINTS.trajectoryLog, async (c) => {
    const body = await readJsonBody(c, TrajectoryLogReq);
    return c.json(await training.logTrajectories(c.req.param('model_id'), body));
  });

  app.post(ENDPOINTS.trainingJobCreate, async (c) => {
    const body = await readJsonBody(c, TrainingJobCreateReq);
    return c.json(await training.createJob(body));
  });

  app.route('/', trainingReadRoutes(training.reads));
  return app;
}
