/**
 * Feedback endpoints: `POST /feedback/batch/create` and `POST /feedback/stats`.
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { newId } from '../../internal/ids.js';
import { APIResource } from '../core/resource.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import {
  FeedbackBatchCreateReq,
  FeedbackBatchCreateRes,
  FeedbackStatsReq,
  FeedbackStatsRes,
} from '../../schema/feedback.js';

/** Feedback on calls (or objects, ops) and time-bucketed statistics over it (spec endpoints 2 and 6). */
export class FeedbackResource extends APIResource {
  /**
   * Creates feedback records in one request. Each item needs `project_id`, `svc_ref` (a ref of the spec's
   * shapes, usually the call ref `svc:///<entity>/<project>/call/<id>`), `feedback_type` and `payload`.
   * @example
   * const { res } = await client.feedback.create({ batch: [{
   *   project_id: 'acme/demo', svc_ref: `svc:///acme/demo/call/${callId}`, feedback_type: 'score', payload: { value: 0.9 },
   * }] });
   * @returns `{res}`: one `{id, created_at, payload, svc_user_id}` per item, in order; an item without `id` gets a
   *   UUIDv7 here before sending, so a retry after a lost answer stores it once; `created_at` is set by the server (ISO 8601 UTC).
   * @throws {RequestValidationError} (as a rejection) when an item is invalid (e.g. a malformed ref), before sending.
   * @throws {APIError} (or a subclass; `ValidationError` for 422) when the server answers an error.
   * @see The interface spec, endpoint 2 "Create feedback in batch"
   */
  async create(body: FeedbackBatchCreateReq, opts?: RequestOptions): Promise<FeedbackBatchCreateRes> {
    const req = checkRequest(FeedbackBatchCreateReq, body, 'feedback batch');
    for (const item of req.batch) item.id ??= newId();
    return this.transport.post(ENDPOINTS.feedbackBatchCreate, req, FeedbackBatchCreateRes, opts);
  }


  /**
   * Statistics of feedback created in `[start, end)` (end defaults to now), in buckets of `granularity`
   * seconds (chosen from the range when omitted, at most 10,000 buckets) aligned to the IANA `timezone`
   * (default `UTC`). Filters: `feedback_type` (exact), `trigger_ref` (exact, or every version with `<name>:*`).
   * Each metric reads `json_path` from the payload as `numeric`, `boolean` or `categorical` values.
   * @example
   * const stats = await client.feedback.stats({
   *   project_id: 'acme/demo', start: '2026-03-01T00:00:00Z', timezone: 'America/New_York',
   *   metrics: [{ json_path: 'value', aggregations: ['avg', 'count'], percentiles: [50, 95] }],
   * });
   * for (const b of stats.buckets ?? []) console.log(b.timestamp, b.count, b['avg_value'], b['p95_value']);
   * @returns `{start, end, granularity, timezone, buckets, window_stats}`; bucket keys `count`, `<agg>_<slug>`,
   *   `p<N>_<slug>` (slug: json_path with `.` and spaces as `_`); `window_stats[slug][agg or p<N>]`.
   * @throws {RequestValidationError} (as a rejection) when the request is invalid, before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see The interface spec, endpoint 6 "Feedback statistics"
   */
  async stats(body: FeedbackStatsReq, opts?: RequestOptions): Promise<FeedbackStatsRes> {
    const req = checkRequest(FeedbackStatsReq, body, 'feedback stats request');
    return this.transport.post(ENDPOINTS.feedbackStats, req, FeedbackStatsRes, opts);
  }
}
