/**
 * Routes of feedback: `POST /feedback/batch/create` and `POST /feedback/stats` (spec endpoints 2 and 6).
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { Hono } from 'hono';
import { FeedbackBatchCreateReq, FeedbackStatsReq } from '../../schema/feedback.js';
import { readJsonBody } from '../http/request-body.js';
import { withStoredPayloads } from './feedback-payload.js';
import type { FeedbackStore } from './feedback-store.js';
import { noMetricsStats } from './stats-query.js';

/**
 * Builds the feedback routes over the feedback store.
 *
 * - `POST /feedback/batch/create` `{batch}` → `{res}`: one `{id, created_at, payload, svc_user_id}` per item,
 *   in order; ids (UUIDv7) generated when absent, `created_at` from `now` (ISO 8601 UTC). All or nothing.
 * - `POST /feedback/stats` → `{start, end, granularity, timezone, buckets, window_stats}`.
 *
 * @param feedback - where feedback is written and read.
 * @param now - the server clock (feedback `created_at`, the default stats `end`).
 */
export function feedbackRoutes(feedback: FeedbackStore, now: () => Date): Hono {
  const app = new Hono();

  app.post(ENDPOINTS.feedbackBatchCreate, async (c) => {
    const body = await readJsonBody(c, FeedbackBatchCreateReq);
    return c.json({ res: await feedback.createBatch(withStoredPayloads(body.batch), now) });
  });

  app.post(ENDPOINTS.feedbackStats, async (c) => {
    const body = await readJsonBody(c, FeedbackStatsReq);
    const at = now();
    return c.json(noMetricsStats(body, at) ?? (await feedback.stats(body, at)));
  });

  return app;
}
