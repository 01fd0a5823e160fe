/**
 * Feedback wire schemas: batch create and time-bucketed stats (spec endpoints 2 and 6).
 * @module
 */
import { z } from 'zod';
import { CallRef, DateTime, JsonObject, ObjectRef, OpRef, OptString, ProjectId } from './common.js';

/** Spec "FeedbackCreateReq": the four leading fields are required, the rest optional. */
export const FeedbackCreateReq = z.object({
  project_id: ProjectId,
  svc_ref: z.string().min(1),
  feedback_type: z.string().min(1),
  payload: JsonObject,
  annotation_ref: ObjectRef.nullish(),
  call_ref: CallRef.nullish(),
  creator: OptString,
  id: OptString,
  queue_id: OptString,
  runnable_ref: OpRef.nullish(),
  trigger_ref: ObjectRef.nullish(),
  svc_user_id: OptString,
});
export type FeedbackCreateReq = z.input<typeof FeedbackCreateReq>;

/** Spec "FeedbackCreateRes". */
export const FeedbackCreateRes = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  payload: JsonObject,
  svc_user_id: z.string().nullish(),
});
export type FeedbackCreateRes = z.infer<typeof FeedbackCreateRes>;

/** Body of `POST /feedback/batch/create`. */
export const FeedbackBatchCreateReq = z.object({ batch: z.array(FeedbackCreateReq) });
export type FeedbackBatchCreateReq = z.input<typeof FeedbackBatchCreateReq>;

/** Answer of `POST /feedback/batch/create`: one item per batch item, in order. */
export const FeedbackBatchCreateRes = z.looseObject({ res: z.array(FeedbackCreateRes) });
export type FeedbackBatchCreateRes = z.infer<typeof FeedbackBatchCreateRes>;

/** Aggregation names accepted in a metric spec (DESIGN.md "Wire facts"). */
export const Aggregation = z.enum(['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false']);
export type Aggregation = z.infer<typeof Aggregation>;

/** Spec "FeedbackMetricSpec". */
export const FeedbackMetricSpec = z.object({
  json_path: z.string().min(1),
  value_type: z.enum(['numeric', 'boolean', 'categorical']).default('numeric'),
  aggregations: z.array(Aggregation).nullish(),
  percentiles: z.array(z.number().min(0).max(100)).nullish(),
});
export type FeedbackMetricSpec = z.input<typeof FeedbackMetricSpec>;

/** Body of `POST /feedback/stats`. */
export const FeedbackStatsReq = z.object({
  project_id: ProjectId,
  start: DateTime,
  end: DateTime.nullish(),
  feedback_type: OptString,
  trigger_ref: OptString,
  granularity: z.number().int().positive().nullish(),
  timezone: z.string().default('UTC'),
  metrics: z.array(FeedbackMetricSpec).nullish(),
});
export type FeedbackStatsReq = z.input<typeof FeedbackStatsReq>;

/** Spec "Feedback statistics response". */
export const FeedbackStatsRes = z.looseObject({
  start: z.string(),
  end: z.string(),
  granularity: z.number().int(),
  timezone: z.string(),
  buckets: z.array(z.looseObject({ timestamp: z.string(), count: z.number() })).optional(),
  window_stats: z.record(z.string(), z.record(z.string(), z.number().nullable())).optional(),
});
export type FeedbackStatsRes = z.infer<typeof FeedbackStatsRes>;
