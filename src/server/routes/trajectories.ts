/**
 * Route of `POST /v1/preview/models/{model_id}/log` (spec endpoint 1): store trajectory groups, answer metrics.
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { Hono } from 'hono';
import { TrajectoryLogReq } from '../../schema/trajectories.js';
import type { Store } from '../store.js';
import { TrajectoryStore } from '../trajectory-store.js';
import { readJsonBody } from '../validate.js';

/**
 * Builds the log route. The body is `{split: "train" | "val" | "test", trajectory_groups: [...]}` (non-empty,
 * each group non-empty, each trajectory with a numeric `reward`); anything else is 422 `{detail}`. The answer
 * is `TrajectoryLogRes`: this request's counts and the model's metrics per split and overall.
 */
export function trajectoryRoutes(store: Store): Hono {
  const trajectories = new TrajectoryStore(store.connection);
  const app = new Hono();
  app.post(ENDPOINTS.trajectoryLog, async (c) => {
    const body = await readJsonBody(c, TrajectoryLogReq);
    return c.json(trajectories.log(c.req.param('model_id'), body));
  });
  return app;
}
