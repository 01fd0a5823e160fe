/**
 * `weft-trace/internal`: what weft-server's server (packages/weft-server/src/server) takes from the SDK, by name:
 * the wire schemas, ids, the OTel span mapping, monitor scoring. A workspace-only entry: weft-server's build resolves
 * it to this file (tsconfig `paths`) and bundles what it uses; the published weft-trace does not export it, and
 * nothing here is public API. The CLI has its own list (`internal-cli-api.ts`), so the server's build reaches only
 * the modules the server uses.
 * @module
 */
export { MonitorLoop, type MonitorLoopOptions } from './eval/monitors/monitor-loop.js';
export type { EndedCall, MonitorPort } from './eval/monitors/monitor-port.js';
export { newId } from './internal/ids.js';
export { safeMessage } from './internal/safe-message.js';
export type { SpanRecord, StatusCode } from './otel/span-record.js';
export { spanToCall } from './otel/span-to-call.js';
export { CallsDeleteReq, CallUpdateReq } from './schema/call-edits.js';
export { type CallStatus, deriveStatus } from './schema/call-status.js';
export { CallsOverviewReq, type CallsOverviewRes, type OverviewBucket, type OverviewFigures, type OverviewGroup } from './schema/calls-overview.js';
export { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeReq, type CallsDeleteBeforeRes, DEFAULT_DELETE_BATCH } from './schema/calls-retention.js';
export { type CallEndRes, type CallRecord, CallsQueryReq, CallStartReq, type CallStartRes, CallSummary, CallUpsertBatchReq, type EndedCallSchemaForInsert, LlmUsage, type StartedCallSchemaForInsert, type UpsertBatchItem } from './schema/calls.js';
export { DateTime } from './schema/common.js';
export { ENDPOINTS, PREVIEW_PREFIX, WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export { FeedbackPurgeReq, purgeIds } from './schema/feedback-purge.js';
export { MAX_FEEDBACK_PAYLOAD_BYTES, REACTION_FEEDBACK_TYPE } from './schema/feedback-types.js';
export { type Aggregation, DEFAULT_AGGREGATIONS, FeedbackBatchCreateReq, FeedbackCreateReq, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsBucket, FeedbackStatsReq, type FeedbackStatsRes, metricSlug, type MetricValueType, percentileName } from './schema/feedback.js';
export { tooDeepAt } from './schema/json-depth.js';
export { LIMITS } from './schema/limits.js';
export { type Monitor, MONITOR_PATHS, MonitorCreateReq, MonitorDeleteReq, MonitorListReq, MonitorProgressReq } from './schema/monitors.js';
export { FileContentReq, FileCreateForm, ObjCreateReq, ObjQueryReq, ObjReadReq, type ObjSchema, type ObjSchemaForInsert } from './schema/objects.js';
export { isProjectId, projectIdMessage } from './schema/project-id.js';
export type { Operand, Operation } from './schema/query.js';
export { opShortName, parseRef } from './schema/refs.js';
export { TableCreateReq, type TableCreateRes, TableQueryReq, type TableRowSchema, WeaveTableCreateReq } from './schema/tables.js';
export { type StoredTrajectoryGroup, TrainingJobQueryReq, TrainingJobReadReq, type TrainingJobRecord, type TrajectoryModel, TrajectoryModelsReq, TrajectoryQueryReq } from './schema/training-reads.js';
export { type Split, TrainingJobCreateReq, TrajectoryLogReq, type TrajectoryLogRes, type TrajectoryMetrics } from './schema/trajectories.js';
export { type DetailItem, issuesToDetail, PARSE_OPTIONS } from './schema/validate.js';
export { WEAVE_BODY_TYPES, WEAVE_ENDPOINTS } from './schema/weave-endpoints.js';
export { WeaveFeedbackCreateReq } from './schema/weave-feedback.js';
