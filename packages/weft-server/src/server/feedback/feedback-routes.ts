/**
 * Routes of feedback: `POST /feedback/batch/create` and `POST /feedback/stats` (spec endpoints 2 and 6), and, for Weave
 * SDK compatibility (not in the interface spec), `POST /feedback/create` and `POST /feedback/purge`.
 * @module
 */
import { ENDPOINTS } from 'weft-trace/wire';
import { Hono } from 'hono';
import { FeedbackBatchCreateReq, FeedbackStatsReq } from 'weft-trace/wire';
import { FeedbackPurgeReq, purgeIds } from 'weft-trace/wire';
import { WEAVE_ENDPOINTS } from 'weft-trace/wire';
import { WeaveFeedbackCreateReq } from 'weft-trace/wire';
import { postJson } from '../http/request-body.js';
import { storedPayload, withStoredPayloads } from './feedback-payload.js';
import type { FeedbackStore } from './feedback-store.js';
import { noMetricsStats } from './stats-query.js';

/** The response header of `POST /feedback/stats` saying where its buckets came from: `rollups`, `rows` or `rollups+rows`. */
export const STATS_SOURCE_HEADER = 'x-weft-stats-source';

/**
 * Builds the feedback routes over the feedback store.
 *
 * - `POST /feedback/batch/create` `{batch}` → `{res}`: one `{id, created_at, payload, svc_user_id}` per item,
 *   in order; ids (UUIDv7) generated when absent, `created_at` from `now` (ISO 8601 UTC). All or nothing.
 * - `POST /feedback/stats` → `{start, end, granularity, timezone, buckets, window_stats}`, with the header
 *   `x-weft-stats-source`: `rollups`, `rows` or `rollups+rows`, where its buckets came from.
 * - `POST /feedback/create`: one item as the Weave SDKs send it (`client.addScore()`), stored as one
 *   `/feedback/batch/create` item would be (ids, `created_at`, idempotence on `id`) and answered
 *   `{id, created_at, payload, svc_user_id, wb_user_id}`.
 * - `POST /feedback/purge` `{project_id, query}`, Weave's purge semantics: a `$expr` naming ids only (else 422) →
 *   `{}` once the feedback with those ids in that project is gone; ids not stored are no error (purging twice
 *   answers the same). The viewer takes back a reaction with it.
 *
 * @param feedback - where feedback is written, read and deleted.
 * @param now - the server clock (feedback `created_at`, the default stats `end`).
 */
export function feedbackRoutes(feedback: FeedbackStore, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, ENDPOINTS.feedbackBatchCreate, FeedbackBatchCreateReq, async (body) => ({
    res: await feedback.createBatch(withStoredPayloads(body.batch), now),
  }));
  postJson(app, ENDPOINTS.feedbackStats, FeedbackStatsReq, async (body, c) => {
    const at = now();
    const empty = noMetricsStats(body, at);
    if (empty) return empty;
    const { res, source } = await feedback.stats(body, at);
    // where the buckets came from: the hour rollups, rows, or both (a weft extension)
    c.header(STATS_SOURCE_HEADER, source);
    return res;
  });
  postJson(app, WEAVE_ENDPOINTS.feedbackCreate, WeaveFeedbackCreateReq, async (item) => {
    const [res] = await feedback.createBatch([{ ...item, payload: storedPayload(item, []) }], now);
    return { ...res!, wb_user_id: res!.svc_user_id ?? null };
  });
  postJson(app, WEAVE_ENDPOINTS.feedbackPurge, FeedbackPurgeReq, async (body) => {
    await feedback.purge(body.project_id, purgeIds(body));
    return {};
  });
  return app;
}
