/**
 * `POST /feedback/purge`: delete feedback by id, Weave's purge semantics (Weave SDK compatibility, not in the
 * interface spec); the viewer takes back a reaction with it.
 * @module
 */
import { Hono } from 'hono';
import { FeedbackPurgeReq, purgeIds } from '../../schema/feedback-purge.js';
import { WEAVE_ENDPOINTS } from '../../schema/weave-endpoints.js';
import { readJsonBody } from '../http/request-body.js';
import type { FeedbackStore } from './feedback-store.js';

/**
 * Builds the route: `{project_id, query}` whose `$expr` names ids only (else 422) → `{}` once the feedback with
 * those ids in that project is gone; ids not stored are no error (purging twice answers the same).
 *
 * @param feedback - where feedback is deleted.
 */
export function feedbackPurgeRoute(feedback: FeedbackStore): Hono {
  const app = new Hono();
  app.post(WEAVE_ENDPOINTS.feedbackPurge, async (c) => {
    const body = await readJsonBody(c, FeedbackPurgeReq);
    await feedback.purge(body.project_id, purgeIds(body));
    return c.json({});
  });
  return app;
}
