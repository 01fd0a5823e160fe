/**
 * Routes of the training reads (extensions of the local server, docs/interface-notes.md "Training reads"): a
 * training job read back, a model's jobs, its stored trajectory groups, the models with trajectories.
 * @module
 */
import { Hono } from 'hono';
import { ENDPOINTS } from '../../schema/endpoints.js';
import { TrainingJobQueryReq, TrainingJobReadReq, TrajectoryModelsReq, TrajectoryQueryReq } from '../../schema/training-reads.js';
import { HttpError } from '../http/http-error.js';
import { readJsonBody } from '../http/request-body.js';
import type { TrainingReads } from './training-reads.js';

/**
 * Builds the read routes over the store's reads (all POST with a JSON body, as the interface's endpoints are;
 * a bad body is 422 `{detail}`):
 * - `/v1/preview/training-jobs/read` `{id}`: the job (`TrainingJobRecord`), 404 `{detail}` when unknown;
 * - `/v1/preview/training-jobs/query` `{model_id}`: `{jobs}`, oldest first;
 * - `/v1/preview/models/{model_id}/trajectories/query` `{split?}`: `{model_id, groups}` in logging order;
 * - `/v1/preview/models/query` `{}`: `{models}`, the most recently logged first.
 */
export function trainingReadRoutes(reads: TrainingReads): Hono {
  const app = new Hono();
  app.post(ENDPOINTS.trainingJobRead, async (c) => {
    const { id } = await readJsonBody(c, TrainingJobReadReq);
    const job = await reads.job(id);
    if (job === undefined) throw new HttpError(404, `training job ${JSON.stringify(id)} not found`);
    return c.json(job);
  });
  app.post(ENDPOINTS.trainingJobQuery, async (c) => {
    const { model_id } = await readJsonBody(c, TrainingJobQueryReq);
    return c.json({ jobs: await reads.jobs(model_id) });
  });
  app.post(ENDPOINTS.trajectoryQuery, async (c) => {
    const body = await readJsonBody(c, TrajectoryQueryReq);
    const modelId = c.req.param('model_id');
    return c.json({ model_id: modelId, groups: await reads.groups(modelId, body.split ?? null) });
  });
  app.post(ENDPOINTS.trajectoryModels, async (c) => {
    await readJsonBody(c, TrajectoryModelsReq);
    return c.json({ models: await reads.models() });
  });
  return app;
}
