/**
 * The `weft-trace/wire` entry point: what crosses between the SDK, the server (weft-server) and the command line, in
 * one place both packages import: the zod schemas of every request and answer (the spec's, interface section by
 * section; `weft-trace/schema` is their documented subset), the endpoint paths, the limits and the validation
 * helpers (`issuesToDetail`, `PARSE_OPTIONS`: the `detail` body of a 422), call ids (`newId`, UUIDv7), refs
 * (`parseRef`, `objectRef`), the media reference a call holds in place of media bytes (`MediaRef`) and the trajectory export formats (`weft export-trajectories`). Pure data and pure
 * functions: nothing here opens a socket or reads the SDK's process state.
 * @module
 */
export { datasetObjectVal, datasetRefOf, objectRef, parseObjectRef, parseTableRef, tableRef } from './eval/refs.js';
export { newId } from './internal/ids.js';
export { CallsDeleteReq, CallUpdateReq } from './schema/call-edits.js';
export { CALL_STATUSES, type CallStatus, deriveStatus, isCallStatus } from './schema/call-status.js';
export { CallsOverviewReq, type CallsOverviewRes, type OverviewBucket, type OverviewFigures, type OverviewGroup } from './schema/calls-overview.js';
export { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeReq, CallsDeleteBeforeRes, DEFAULT_DELETE_BATCH } from './schema/calls-retention.js';
export { type CallEndRes, type CallRecord, CallsQueryReq, CallStartReq, type CallStartRes, CallSummary, CallUpsertBatchReq, type EndedCallSchemaForInsert, LlmUsage, type StartedCallSchemaForInsert, type UpsertBatchItem } from './schema/calls.js';
export { DateTime } from './schema/common.js';
export { callRef, type CallDatasetRow, DATASET_PATHS, DatasetAddCallsReq, DatasetAddCallsRes, expectedFromText, MAX_DATASET_ADD_CALLS, parseCallRef } from './schema/datasets.js';
export { ENDPOINTS, OVERVIEW_HEADERS, PREVIEW_PREFIX, WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export { FeedbackPurgeReq, purgeIds } from './schema/feedback-purge.js';
export { MAX_FEEDBACK_PAYLOAD_BYTES, REACTION_FEEDBACK_TYPE } from './schema/feedback-types.js';
export { Aggregation, DEFAULT_AGGREGATIONS, FeedbackBatchCreateReq, FeedbackCreateReq, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsBucket, FeedbackStatsReq, type FeedbackStatsRes, metricSlug, type MetricValueType, percentileName } from './schema/feedback.js';
export { tooDeepAt } from './schema/json-depth.js';
export { LIMITS } from './schema/limits.js';
export { isMediaRef, MEDIA_REF_TYPE, MediaRef } from './schema/media.js';
export { Monitor, monitorMetric, MONITOR_PATHS, monitorTriggerRef, MonitorCreateReq, MonitorDeleteReq, MonitorDeleteRes, MonitorListReq, MonitorListRes, MonitorProgressReq, MonitorProgressRes } from './schema/monitors.js';
export { FieldCreateReq, FieldListReq, type ItemRef, type Queue, QueueAddReq, QueueAnswerReq, QueueAnswersReq, QueueCreateReq, QueueFillReq, QueueItemsReq, QueueListReq, QueueNextReq, QueueReadReq, QueueSkipReq } from './schema/review.js';
export { ANNOTATION_SPEC_CLASS, annotationFeedbackType, type AnnotationField, type AnnotationFieldSpec, answerProblem, fieldRef, FIELD_TYPES, type FieldType, ITEM_STATUSES, type ItemStatus, type QueueItem, type QueueProgress, REVIEW_PATHS } from './schema/review-refs.js';
export { FileContentReq, FileCreateForm, ObjCreateReq, ObjQueryReq, ObjReadReq, type ObjSchema, type ObjSchemaForInsert } from './schema/objects.js';
export { isProjectId, projectIdMessage } from './schema/project-id.js';
export type { Operand, Operation } from './schema/query.js';
export { opShortName, parseRef } from './schema/refs.js';
export { TableCreateReq, type TableCreateRes, TableQueryReq, type TableRowSchema, WeaveTableCreateReq } from './schema/tables.js';
export { type StoredTrajectoryGroup, TrainingJobQueryReq, TrainingJobReadReq, type TrainingJobRecord, type TrajectoryModel, TrajectoryModelsReq, TrajectoryQueryReq } from './schema/training-reads.js';
export { Split, TrainingJobCreateReq, TrajectoryLogReq, type TrajectoryLogRes, type TrajectoryMetrics } from './schema/trajectories.js';
export { type DetailItem, issuesToDetail, PARSE_OPTIONS } from './schema/validate.js';
export { WEAVE_BODY_TYPES, WEAVE_ENDPOINTS } from './schema/weave-endpoints.js';
export { WeaveFeedbackCreateReq } from './schema/weave-feedback.js';
export { EXPORT_FORMATS, type ExportFormat, groupLines, openAiSftLines } from './trajectories/export-formats.js';
