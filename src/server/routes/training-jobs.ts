/**
 * Route of `POST /v1/preview/training-jobs` (spec endpoint 4): validate and store a job as `queued`.
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { Hono } from 'hono';
import { TrainingJobCreateReq } from '../../schema/trajectories.js';
import type { Store } from '../store.js';
import { TrainingJobStore } from '../training-jobs-store.js';
import { readJsonBody } from '../validate.js';

/**
 * Builds the training-job route. `model_id` must be a UUID, `trajectory_groups` non-empty, and
 * `experimental_config` within the ranges documented on `ExperimentalTrainingConfig`; otherwise 422 `{detail}`
 * with one item per bad field. Answers `{id, model_id, status: "queued", created_at}`.
 */
export function trainingJobRoutes(store: Store): Hono {
  const jobs = new TrainingJobStore(store.connection);
  const app = new Hono();
  app.post(ENDPOINTS.trainingJobCreate, async (c) => {
    const body = await readJsonBody(c, TrainingJobCreateReq);
    return c.json(jobs.create(body));
  });
  return app;
}
