/**
 * `weft-trace/internal`: what weft-server (packages/weft-server: the server, the CLI) takes from the SDK, by name.
 * A workspace-only entry: weft-server's build resolves it to this file (tsconfig `paths`) and bundles what it uses;
 * the published weft-trace does not export it, and nothing here is public API.
 * @module
 */
export { Client } from './api/client.js';
export { APIConnectionError, APIError, UnexpectedResponseError } from './api/core/api-errors.js';
export { DEFAULT_BASE_URL } from './api/core/client-options.js';
export { jsonlLines } from './api/core/jsonl-lines.js';
export { q } from './api/resources/query-builder.js';
export { Dataset } from './eval/dataset.js';
export { MonitorLoop, type MonitorLoopOptions } from './eval/monitors/monitor-loop.js';
export type { EndedCall, MonitorPort } from './eval/monitors/monitor-port.js';
export { MONITOR_BUILTINS } from './eval/monitors/monitor-scorer.js';
export { objectRef } from './eval/refs.js';
export { type RowComparison, type ScoreComparison, compareRuns } from './eval/runs/compare.js';
export { listRuns, loadRun } from './eval/runs/load-runs.js';
export type { EvalRow, EvalRun } from './eval/runs/run-records.js';
export type { ExportOptions } from './export/export-options.js';
export { flushSpoolDir } from './export/spool-flush.js';
export { defaultSpoolDir } from './export/spool-location.js';
export { newId } from './internal/ids.js';
export { type Progress, rateSummary, startProgress } from './internal/progress.js';
export { safeMessage } from './internal/safe-message.js';
export { viewerLink } from './internal/viewer-link.js';
export type { SpanRecord, StatusCode } from './otel/span-record.js';
export { spanToCall } from './otel/span-to-call.js';
export { CallUpdateReq, CallsDeleteReq } from './schema/call-edits.js';
export { CALL_STATUSES, type CallStatus, deriveStatus, isCallStatus } from './schema/call-status.js';
export { CallsOverviewReq, type CallsOverviewRes, type OverviewBucket, type OverviewFigures, type OverviewGroup } from './schema/calls-overview.js';
export { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeReq, CallsDeleteBeforeRes, DEFAULT_DELETE_BATCH } from './schema/calls-retention.js';
export { type CallEndRes, type CallRecord, CallStartReq, type CallStartRes, CallSummary, CallUpsertBatchReq, CallsQueryReq, type EndedCallSchemaForInsert, LlmUsage, type StartedCallSchemaForInsert, type UpsertBatchItem } from './schema/calls.js';
export { DateTime } from './schema/common.js';
export { ENDPOINTS, PREVIEW_PREFIX, WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export { FeedbackPurgeReq, purgeIds } from './schema/feedback-purge.js';
export { MAX_FEEDBACK_PAYLOAD_BYTES, REACTION_FEEDBACK_TYPE } from './schema/feedback-types.js';
export { Aggregation, DEFAULT_AGGREGATIONS, FeedbackBatchCreateReq, FeedbackCreateReq, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsBucket, FeedbackStatsReq, type FeedbackStatsRes, type MetricValueType, metricSlug, percentileName } from './schema/feedback.js';
export { tooDeepAt } from './schema/json-depth.js';
export { LIMITS } from './schema/limits.js';
export { MONITOR_PATHS, Monitor, MonitorCreateReq, MonitorDeleteReq, MonitorDeleteRes, MonitorListReq, MonitorListRes, MonitorProgressReq, MonitorProgressRes } from './schema/monitors.js';
export { FileContentReq, FileCreateForm, ObjCreateReq, ObjQueryReq, ObjReadReq, type ObjSchema, type ObjSchemaForInsert } from './schema/objects.js';
export { isProjectId, projectIdMessage } from './schema/project-id.js';
export type { Operand, Operation } from './schema/query.js';
export { opShortName, parseRef } from './schema/refs.js';
export { TableCreateReq, type TableCreateRes, TableQueryReq, type TableRowSchema, WeaveTableCreateReq } from './schema/tables.js';
export { type StoredTrajectoryGroup, TrainingJobQueryReq, TrainingJobReadReq, type TrainingJobRecord, type TrajectoryModel, TrajectoryModelsReq, TrajectoryQueryReq } from './schema/training-reads.js';
export { Split, TrainingJobCreateReq, TrajectoryLogReq, type TrajectoryLogRes, type TrajectoryMetrics } from './schema/trajectories.js';
export { type DetailItem, PARSE_OPTIONS, issuesToDetail } from './schema/validate.js';
export { WEAVE_BODY_TYPES, WEAVE_ENDPOINTS } from './schema/weave-endpoints.js';
export { WeaveFeedbackCreateReq } from './schema/weave-feedback.js';
export { EXPORT_FORMATS, type ExportFormat, groupLines, openAiSftLines } from './trajectories/export-formats.js';
