/**
 * `POST /feedback/create`: one feedback item as the Weave SDKs send it (`client.addScore()`); Weave SDK compatibility, not in the interface spec.
 * @module
 */
import { Hono } from 'hono';
import { WEAVE_ENDPOINTS } from '../../schema/weave-endpoints.js';
import { WeaveFeedbackCreateReq } from '../../schema/weave-feedback.js';
import { readJsonBody } from '../http/request-body.js';
import { storedPayload } from './feedback-payload.js';
import type { FeedbackStore } from './feedback-store.js';

/**
 * Builds the route: the item is stored as one `/feedback/batch/create` item would be (ids, `created_at`,
 * idempotence on `id`) and answered `{id, created_at, payload, svc_user_id, wb_user_id}`.
 *
 * @param feedback - where feedback is written.
 * @param now - the server clock (`created_at`).
 */
export function feedbackCreateRoute(feedback: FeedbackStore, now: () => Date): Hono {
  const app = new Hono();
  app.post(WEAVE_ENDPOINTS.feedbackCreate, async (c) => {
    const item = await readJsonBody(c, WeaveFeedbackCreateReq);
    const [res] = await feedback.createBatch([{ ...item, payload: storedPayload(item, []) }], now);
    return c.json({ ...res!, wb_user_id: res!.svc_user_id ?? null });
  });
  return app;
}
