/**
 * Call tracing wire schemas: start, end, upsert batch and stream query (spec endpoints 3, 5, 7).
 * @module
 */
import { CALL_STATUSES } from './call-status.js';
import { z } from 'zod';
import { DateTime, FieldPath, JsonObject, OptString, OptStrings, SortByList } from './common.js';
import { IdList } from './ids.js';
import { ProjectId } from './project-id.js';
import { LIMITS, tooMany } from './limits.js';
import { FeedbackRecord } from './feedback.js';
import { Query } from './query.js';

/** Spec "StartedCallSchemaForInsert": everything known when a call begins. */
export const StartedCallSchemaForInsert = z.object({
  project_id: ProjectId,
  op_name: z.string().min(1, 'op_name must not be empty'),
  started_at: DateTime,
  attributes: JsonObject,
  inputs: JsonObject,
  display_name: OptString,
  id: OptString,
  otel_dump: JsonObject.nullish(),
  parent_id: OptString,
  thread_id: OptString,
  trace_id: OptString,
  turn_id: OptString,
  svc_run_id: OptString,
  svc_run_step: z.number().int().nullish(),
  svc_user_id: OptString,
});
export type StartedCallSchemaForInsert = z.input<typeof StartedCallSchemaForInsert>;

/** A recorded exception: its class name, message and stack (a plain string is accepted too). */
export const CallException = z.union([
  z.string(),
  z.looseObject({ type: z.string().optional(), message: z.string(), stack: z.string().optional() }),
]);
export type CallException = z.infer<typeof CallException>;

/** Per-model token usage inside `summary.usage` (numbers are added up the tree). */
export const LlmUsage = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
  requests: z.number().optional(),
});
export type LlmUsage = z.infer<typeof LlmUsage>;

/** `summary` of an ended call: `usage` by model and `status_counts` (success, error). */
export const CallSummary = z.looseObject({
  usage: z.record(z.string(), LlmUsage).optional(),
  status_counts: z.record(z.string(), z.number()).optional(),
});
export type CallSummary = z.infer<typeof CallSummary>;

/**
 * End of a call (the interface spec, "Call batch items", leaves its shape open; this is weft's): `{project_id, id, ended_at, output?, exception?, summary, display_name?, svc_run_step_end?, counted_in_parent?}`.
 * `display_name` (sent by the Weave SDK when the name changed while the call ran) replaces the start's when given;
 * `svc_run_step_end` is the run step when the call ended (Weave's `wb_run_step_end`), stored and answered beside `svc_run_step`.
 * `counted_in_parent: false` says the sender did not add this call's `status_counts` and `usage` into its parent's
 * summary (the parent is in another process, joined by `traceparent`, or had ended): the server then adds them to every
 * stored ancestor (docs/interface-notes.md, "Totals across processes"). Absent: counted, as `op()` counts its children.
 */
export const EndedCallSchemaForInsert = z.object({
  project_id: ProjectId,
  id: z.string().min(1, 'id must not be empty'),
  ended_at: DateTime,
  output: z.unknown().optional(),
  exception: CallException.nullish(),
  summary: CallSummary,
  display_name: OptString,
  svc_run_step_end: z.number().int().nullish(),
  counted_in_parent: z.boolean().optional(),
});
export type EndedCallSchemaForInsert = z.input<typeof EndedCallSchemaForInsert>;

/** Body of `POST /call/start`. */
export const CallStartReq = z.object({ start: StartedCallSchemaForInsert });
export type CallStartReq = z.input<typeof CallStartReq>;

/** Answer of `POST /call/start` and of a start item in a batch. */
export const CallStartRes = z.looseObject({ id: z.string(), trace_id: z.string() });
export type CallStartRes = z.infer<typeof CallStartRes>;

/** Answer of an end item in a batch: `{}`. */
export const CallEndRes = z.looseObject({});
export type CallEndRes = z.infer<typeof CallEndRes>;

/** A start-mode batch item: `{mode: "start", req: {start}}`. */
export const StartBatchItem = z.object({ mode: z.literal('start'), req: CallStartReq });
export type StartBatchItem = z.input<typeof StartBatchItem>;
/** An end-mode batch item: `{mode: "end", req: {end}}`. */
export const EndBatchItem = z.object({
  mode: z.literal('end'),
  req: z.object({ end: EndedCallSchemaForInsert }),
});
export type EndBatchItem = z.input<typeof EndBatchItem>;
export const UpsertBatchItem = z.discriminatedUnion('mode', [StartBatchItem, EndBatchItem]);
export type UpsertBatchItem = z.input<typeof UpsertBatchItem>;

/** Body of `POST /call/upsert_batch`: at most `LIMITS.maxBatchItems` items. */
export const CallUpsertBatchReq = z.object({
  batch: z.array(UpsertBatchItem).max(LIMITS.maxBatchItems, tooMany('batch items', LIMITS.maxBatchItems)),
});
export type CallUpsertBatchReq = z.input<typeof CallUpsertBatchReq>;

/** Answer of `POST /call/upsert_batch`: one result per item, in order. */
export const CallUpsertBatchRes = z.looseObject({
  res: z.array(z.union([CallStartRes, CallEndRes])),
});
export type CallUpsertBatchRes = z.infer<typeof CallUpsertBatchRes>;

/**
 * Spec "CallsFilter": every field optional; lists match any of their values. A key not listed here (a typo, or a
 * field of a newer client) is a 422 naming it (`loc: ["body", "filter", "<key>"]`), never silently ignored.
 * `call_ids`, `parent_ids`, `trace_ids` and `ancestor_ids` match each id in both its forms, with and without dashes (`idForms`).
 * `ancestor_ids` (Weave's `CallsFilter.ancestor_ids`): the calls under any of the given calls, at any depth (not the
 * given calls themselves); an empty list matches no call, which is not the same as no filter.
 */
export const CallsFilter = z.strictObject({
  ancestor_ids: IdList,
  call_ids: IdList,
  input_refs: OptStrings,
  op_names: OptStrings,
  output_refs: OptStrings,
  parent_ids: IdList,
  thread_ids: OptStrings,
  trace_ids: IdList,
  trace_roots_only: z.boolean().nullish(),
  turn_ids: OptStrings,
  svc_run_ids: OptStrings,
  svc_user_ids: OptStrings,
});
export type CallsFilter = z.input<typeof CallsFilter>;

/** `columns` / `expand_columns`: at most `LIMITS.maxColumns` field paths; `null` means absent. */
const ColumnList = z.array(FieldPath).max(LIMITS.maxColumns, tooMany('columns', LIMITS.maxColumns)).nullish();

/**
 * Body of `POST /calls/stream_query` (spec endpoint 3). Paths in `sort_by`, `query`, `columns` and
 * `expand_columns` are dotted (`summary.usage.gpt-4o.total_tokens`); a segment in double quotes may hold
 * dots (`summary.usage."gpt-4.1".total_tokens`). Paths hold no control characters; `sort_by` holds at most
 * `LIMITS.maxSortBy` entries, `columns` and `expand_columns` `LIMITS.maxColumns` each.
 */
export const CallsQueryReq = z.object({
  project_id: ProjectId,
  filter: CallsFilter.nullish(),
  query: Query.nullish(),
  limit: z.number().int().min(0).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: SortByList,
  columns: ColumnList,
  expand_columns: ColumnList,
  return_expanded_column_values: z.boolean().nullish(),
  include_costs: z.boolean().nullish(),
  include_feedback: z.boolean().nullish(),
  include_storage_size: z.boolean().nullish(),
  include_total_storage_size: z.boolean().nullish(),
  include_usernames: z.boolean().nullish(),
});
export type CallsQueryReq = z.input<typeof CallsQueryReq>;

/** Cost of one model's usage in a call (`include_costs`): USD totals; `*_token_cost` in USD per token. */
export const ModelCost = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  requests: z.number(),
  total_tokens: z.number(),
  prompt_token_cost: z.number(),
  completion_token_cost: z.number(),
  prompt_tokens_total_cost: z.number(),
  completion_tokens_total_cost: z.number(),
  total_cost: z.number(),
  cost_unit: z.string(),
  priced_as: z.string().optional(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
  cache_read_input_token_cost: z.number().optional(),
  cache_creation_input_token_cost: z.number().optional(),
  /** Part of `prompt_tokens_total_cost`. */
  cache_read_input_tokens_total_cost: z.number().optional(),
  /** Part of `prompt_tokens_total_cost`. */
  cache_creation_input_tokens_total_cost: z.number().optional(),
  /** `override` (the server's `prices`) or `genai-prices`. */
  price_source: z.string().optional(),
});
export type ModelCost = z.infer<typeof ModelCost>;

/**
 * One record of the `/calls/stream_query` JSONL answer (the interface spec, endpoint 3, leaves its shape open; this is weft's). The `include_*` options
 * add `summary.costs` (model → {@link ModelCost}), `summary.feedback` (feedback records, oldest first),
 * `storage_size_bytes`, `total_storage_size_bytes` (bytes) and `svc_user_name`.
 */
export const CallRecord = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  op_name: z.string(),
  display_name: z.string().nullish(),
  trace_id: z.string(),
  parent_id: z.string().nullish(),
  thread_id: z.string().nullish(),
  turn_id: z.string().nullish(),
  started_at: z.string(),
  ended_at: z.string().nullish(),
  attributes: JsonObject.nullish(),
  inputs: JsonObject.nullish(),
  output: z.unknown().optional(),
  exception: CallException.nullish(),
  summary: z
    .looseObject({
      status: z.enum(CALL_STATUSES).optional(),
      latency_ms: z.number().nullish(),
      status_counts: z.record(z.string(), z.number()).optional(),
      usage: z.record(z.string(), LlmUsage).optional(),
      costs: z.record(z.string(), ModelCost).optional(),
      feedback: z.array(FeedbackRecord).optional(),
      /** Weave's derived fields: `status`, `trace_name` (display name, else the op's short name), `latency_ms` once ended. */
      weave: z.looseObject({ status: z.enum(CALL_STATUSES).optional(), trace_name: z.string().optional(), latency_ms: z.number().optional() }).optional(),
    })
    .nullish(),
  svc_user_id: z.string().nullish(),
  svc_run_id: z.string().nullish(),
  svc_run_step: z.number().nullish(),
  svc_run_step_end: z.number().nullish(),
  storage_size_bytes: z.number().int().nullish(),
  total_storage_size_bytes: z.number().int().nullish(),
  svc_user_name: z.string().nullish(),
});
export type CallRecord = z.infer<typeof CallRecord>;

/** A record answered for a query with `columns`: `id` plus the listed columns and those always answered (packages/weft-server/src/server/calls/query/columns.ts), any of which may be absent. */
export const PartialCallRecord = CallRecord.partial().required({ id: true });
export type PartialCallRecord = z.infer<typeof PartialCallRecord>;
