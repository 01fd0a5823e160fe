/**
 * `POST /weft/calls/delete_before` (a weft extension; `weft calls delete --before`): a project's traces started before a
 * cutoff deleted in batches that take turns with the writes (calls/jobs/retention.ts), answered once all are deleted.
 * @module
 */
import { Hono } from 'hono';
import { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeReq, type CallsDeleteBeforeRes, DEFAULT_DELETE_BATCH } from 'weft-trace/wire';
import { normalizeTimestamp } from '../db/timestamps.js';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { CallStore } from './call-store.js';
import { deleteBefore } from './jobs/retention.js';

/**
 * Builds the route. Body {@link CallsDeleteBeforeReq}; answer {@link CallsDeleteBeforeRes}. 422 `{detail}` for a bad
 * body and for a `before` later than the server's clock (a typo must not delete a project's newest calls).
 *
 * @param calls - the call store.
 * @param now - the server clock.
 */
export function retentionRoute(calls: CallStore, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeReq, async (body): Promise<CallsDeleteBeforeRes> => {
    const cutoff = normalizeTimestamp(body.before);
    if (Date.parse(cutoff) > now().getTime()) {
      throw HttpError.validation([{ loc: ['body', 'before'], msg: `before must not be later than the server's clock (${now().toISOString()}), got ${body.before}`, type: 'value_error' }]);
    }
    const totals = await deleteBefore(calls, { projectId: body.project_id, cutoff, batchSize: body.batch_size ?? DEFAULT_DELETE_BATCH });
    return { before: cutoff, deleted_calls: totals.calls, deleted_feedback: totals.feedback, deleted_files: totals.files, batches: totals.batches };
  });
  return app;
}
