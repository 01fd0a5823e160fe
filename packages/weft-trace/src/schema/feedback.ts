/**
 * Feedback wire schemas: batch create and time-bucketed stats (spec endpoints 2 and 6).
 * @module
 */
import { z } from 'zod';
import { CallRef, DateTime, JsonObject, ObjectRef, OpRef, OptString } from './common.js';
import { ProjectId } from './project-id.js';
import { LIMITS, tooMany } from './limits.js';
import { checkFeedbackType } from './feedback-types.js';
import { parseRef, toSvcRef } from './refs.js';

/** Any of the spec's three ref shapes (object, op or call ref): what feedback may be about. */
export const AnyRef = z
  .string()
  .refine((v) => [ObjectRef, OpRef, CallRef].some((shape) => shape.safeParse(v).success), {
    error: 'expected a ref: svc:///<entity>/<project>/object/<name>:<digest>, .../op/<name>:<digest> or .../call/<call_id>',
  });

/** "UUID-like identifier" (spec): 8-4-4-4-12 hex digits, any version. */
const UuidLike = z.guid('expected a UUID-like identifier (8-4-4-4-12 hex digits)').nullish();

/**
 * Spec "FeedbackCreateReq": the four leading fields are required, the rest optional. Ref fields must have
 * the spec's ref shapes; `svc_ref` and `call_ref` must point into `project_id`.
 */
export const FeedbackCreateReq = z
  .object({
    project_id: ProjectId,
    svc_ref: AnyRef,
    feedback_type: z.string().min(1, 'feedback_type must not be empty'),
    payload: JsonObject,
    annotation_ref: ObjectRef.nullish(),
    call_ref: CallRef.nullish(),
    creator: OptString,
    id: UuidLike,
    queue_id: UuidLike,
    runnable_ref: z.union([OpRef, ObjectRef]).nullish(),
    trigger_ref: ObjectRef.nullish(),
    svc_user_id: OptString,
  })
  .superRefine((item, ctx) => {
    checkFeedbackType(item, ctx);
    for (const key of ['svc_ref', 'call_ref'] as const) {
      const ref = item[key];
      const project = ref ? parseRef(ref)?.project : undefined;
      if (project !== undefined && project !== item.project_id) {
        ctx.addIssue({ code: 'custom', path: [key], input: ref, message: `${key} points into project ${project}, expected project_id ${item.project_id}` });
      }
    }
  });
export type FeedbackCreateReq = z.input<typeof FeedbackCreateReq>;

/** Spec "FeedbackCreateRes". `created_at` is set by the server (ISO 8601 UTC). */
export const FeedbackCreateRes = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  payload: JsonObject,
  svc_user_id: z.string().nullish(),
});
export type FeedbackCreateRes = z.infer<typeof FeedbackCreateRes>;

/** Body of `POST /feedback/batch/create`: at most `LIMITS.maxBatchItems` items. */
export const FeedbackBatchCreateReq = z.object({
  batch: z.array(FeedbackCreateReq).max(LIMITS.maxBatchItems, tooMany('batch items', LIMITS.maxBatchItems)),
});
export type FeedbackBatchCreateReq = z.input<typeof FeedbackBatchCreateReq>;

/** Answer of `POST /feedback/batch/create`: one item per batch item, in order. */
export const FeedbackBatchCreateRes = z.looseObject({ res: z.array(FeedbackCreateRes) });
export type FeedbackBatchCreateRes = z.infer<typeof FeedbackBatchCreateRes>;

/** A stored feedback record, as returned with calls (`include_feedback`). */
export const FeedbackRecord = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  feedback_type: z.string(),
  svc_ref: z.string(),
  payload: JsonObject,
  annotation_ref: z.string().nullable(),
  call_ref: z.string().nullable(),
  creator: z.string().nullable(),
  queue_id: z.string().nullable(),
  runnable_ref: z.string().nullable(),
  trigger_ref: z.string().nullable(),
  svc_user_id: z.string().nullable(),
  created_at: z.string(),
});
export type FeedbackRecord = z.infer<typeof FeedbackRecord>;

/** Aggregation names accepted in a metric spec (the interface spec, "FeedbackMetricSpec", leaves them open; these are weft's). */
export const Aggregation = z.enum(['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false']);
export type Aggregation = z.infer<typeof Aggregation>;

/** How payload values are read: numbers, booleans (true = 1, false = 0) or categories (any non-null value). */
export const MetricValueType = z.enum(['numeric', 'boolean', 'categorical']);
export type MetricValueType = z.infer<typeof MetricValueType>;

/** Aggregations defined for each value type; others are refused with 422. */
export const AGGREGATIONS_BY_TYPE: Readonly<Record<MetricValueType, readonly Aggregation[]>> = {
  numeric: ['sum', 'avg', 'min', 'max', 'count'],
  boolean: ['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false'],
  categorical: ['count'],
};

/** Aggregations computed when a metric spec omits `aggregations`. */
export const DEFAULT_AGGREGATIONS: Readonly<Record<MetricValueType, readonly Aggregation[]>> = {
  numeric: ['avg'],
  boolean: ['count_true', 'count_false'],
  categorical: ['count'],
};

/** A payload path: dot-separated keys (no `"`, `[`, `]` nor control characters), each optionally followed by `[<index>]`. */
const JSON_PATH = /^[^.[\]"\u0000-\u001f\u007f]+(\[\d+\])*(\.[^.[\]"\u0000-\u001f\u007f]+(\[\d+\])*)*$/;

/** The metric slug of a json_path: `.` and whitespace become `_` (the interface spec, "FeedbackMetricSpec", leaves the slug open; this is weft's). */
export function metricSlug(jsonPath: string): string {
  return jsonPath.replace(/[.\s]/g, '_');
}

/** The name of percentile `p`: `p<N>`, a `.` in N written `_` (99.9 → `p99_9`); a key of `window_stats[slug]`. */
export function percentileName(p: number): string {
  return `p${String(p).replace('.', '_')}`;
}

/**
 * Spec "FeedbackMetricSpec". `json_path` is a dotted path into the payload, e.g. `scores.helpfulness` or
 * `items[0].ok` (no control characters). At most `LIMITS.maxPercentiles` percentiles and 7 aggregations.
 */
export const FeedbackMetricSpec = z
  .object({
    json_path: z.string().regex(JSON_PATH, 'expected a dotted path into the payload, e.g. "score" or "scores.helpfulness"'),
    value_type: MetricValueType.default('numeric'),
    aggregations: z.array(Aggregation).max(Aggregation.options.length, tooMany('aggregations', Aggregation.options.length)).nullish(),
    percentiles: z.array(z.number().min(0).max(100)).max(LIMITS.maxPercentiles, tooMany('percentiles', LIMITS.maxPercentiles)).nullish(),
  })
  .superRefine((spec, ctx) => {
    const allowed = AGGREGATIONS_BY_TYPE[spec.value_type];
    (spec.aggregations ?? []).forEach((agg, i) => {
      if (!allowed.includes(agg)) {
        ctx.addIssue({ code: 'custom', path: ['aggregations', i], input: agg, message: `aggregation ${agg} is not defined for value_type ${spec.value_type} (allowed: ${allowed.join(', ')})` });
      }
    });
    if (spec.value_type === 'categorical' && (spec.percentiles?.length ?? 0) > 0) {
      ctx.addIssue({ code: 'custom', path: ['percentiles'], input: spec.percentiles, message: 'percentiles need value_type numeric or boolean' });
    }
  });
export type FeedbackMetricSpec = z.input<typeof FeedbackMetricSpec>;

/** True when the runtime's Intl knows the IANA time zone name. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * `trigger_ref` filter: an object ref (exact match) or one ending in `:*` (every version of that object). A Weave
 * client's `weave:///` ref is read as the spec's `svc:///` one, as `/feedback/create` stores it.
 */
const TriggerRefFilter = z.preprocess(toSvcRef, z
  .string()
  .regex(/^svc:\/\/\/[^/]+\/[^/]+\/object\/[^/:]+:[^/]+$/, 'expected svc:///<entity>/<project>/object/<name>:<digest>, or <name>:* for every version'));

/** Body of `POST /feedback/stats`. Times are ISO 8601; `granularity` is in seconds; at most `LIMITS.maxMetrics` metrics. */
export const FeedbackStatsReq = z
  .object({
    project_id: ProjectId,
    start: DateTime,
    end: DateTime.nullish(),
    feedback_type: OptString,
    trigger_ref: TriggerRefFilter.nullish(),
    granularity: z.number().int().positive().nullish(),
    timezone: z.string().refine(isTimeZone, 'expected an IANA time zone such as "UTC" or "America/New_York"').default('UTC'),
    metrics: z.array(FeedbackMetricSpec).max(LIMITS.maxMetrics, tooMany('metrics', LIMITS.maxMetrics)).nullish(),
  })
  .superRefine((req, ctx) => {
    if (req.end != null && Date.parse(req.end) <= Date.parse(req.start)) {
      ctx.addIssue({ code: 'custom', path: ['end'], input: req.end, message: `end must be later than start (${req.start})` });
    }
    const seen = new Set<string>();
    (req.metrics ?? []).forEach((m, i) => {
      const slug = metricSlug(m.json_path);
      if (seen.has(slug)) ctx.addIssue({ code: 'custom', path: ['metrics', i, 'json_path'], input: m.json_path, message: `two metrics share the slug ${slug}` });
      seen.add(slug);
    });
  });
export type FeedbackStatsReq = z.input<typeof FeedbackStatsReq>;

/** One bucket: its start (ISO 8601 in the request's time zone), `count`, and `<agg>_<slug>` / `p<N>_<slug>` values. */
export const FeedbackStatsBucket = z.object({ timestamp: z.string(), count: z.number().int() }).catchall(z.union([z.number(), z.string(), z.null()]));
export type FeedbackStatsBucket = z.infer<typeof FeedbackStatsBucket>;

/** Spec "Feedback statistics response". */
export const FeedbackStatsRes = z.looseObject({
  start: z.string(),
  end: z.string(),
  granularity: z.number().int(),
  timezone: z.string(),
  buckets: z.array(FeedbackStatsBucket).optional(),
  window_stats: z.record(z.string(), z.record(z.string(), z.number().nullable())).optional(),
});
export type FeedbackStatsRes = z.infer<typeof FeedbackStatsRes>;
