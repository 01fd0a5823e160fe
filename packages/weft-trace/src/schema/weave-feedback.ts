/**
 * The one-item feedback body of the Weave SDKs (`POST /feedback/create`; Weave SDK compatibility, not in the interface spec), read as a spec feedback item.
 * @module
 */
import { z } from 'zod';
import { FeedbackCreateReq } from './feedback.js';
import { toSvcRef } from './refs.js';

/** The ref fields of a feedback item. */
const REF_FIELDS = ['svc_ref', 'annotation_ref', 'call_ref', 'runnable_ref', 'trigger_ref'] as const;

export { toSvcRef };

/**
 * Weave's feedback item as a spec `FeedbackCreateReq`: `weave_ref` is `svc_ref`, `wb_user_id` is `svc_user_id`,
 * and refs may use the `weave:///` scheme (stored as `svc:///`). Other values pass unchanged, so validation
 * reports them as the spec item's fields.
 */
function fromWeaveShape(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const { weave_ref, wb_user_id, ...rest } = data as Record<string, unknown>;
  const item: Record<string, unknown> = { ...rest };
  if (item['svc_ref'] === undefined && weave_ref !== undefined) item['svc_ref'] = weave_ref;
  if (item['svc_user_id'] === undefined && wb_user_id !== undefined) item['svc_user_id'] = wb_user_id;
  for (const key of REF_FIELDS) if (item[key] !== undefined) item[key] = toSvcRef(item[key]);
  return item;
}

/**
 * Body of `POST /feedback/create`: one feedback item in weave's shape (`{project_id, weave_ref, feedback_type,
 * payload, runnable_ref?, call_ref?, ...}`) or the spec's (`svc_ref`). Answer: `{id, created_at, payload,
 * svc_user_id, wb_user_id}`.
 */
export const WeaveFeedbackCreateReq = z.preprocess(fromWeaveShape, FeedbackCreateReq);
export type WeaveFeedbackCreateReq = z.input<typeof WeaveFeedbackCreateReq>;
