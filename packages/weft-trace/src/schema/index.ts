/**
 * The `weft-trace/schema` entry point: the zod schemas of the wire (zod is the single source of truth for it),
 * each with its inferred type of the same name, named after the spec's requests and answers. Listed by name;
 * the helpers the server and the client share (`../check-request.ts`, `validate.ts`, `limits.ts`, ...) stay internal.
 * @module
 */
export { CALL_STATUSES, isCallStatus, type CallStatus } from './call-status.js';
export { DateTime, JsonObject, ObjectRef, OpRef, CallRef, SortBy } from './common.js';
export { ProjectId, isProjectId, projectIdMessage } from './project-id.js';
export { Query, OperandSchema, OperationSchema, type Operand, type Operation } from './query.js';
export { ValidationErrorItem, ValidationErrorBody } from './validation-error.js';
export {
  StartedCallSchemaForInsert,
  CallException,
  LlmUsage,
  CallSummary,
  EndedCallSchemaForInsert,
  CallStartReq,
  CallStartRes,
  CallEndRes,
  StartBatchItem,
  EndBatchItem,
  UpsertBatchItem,
  CallUpsertBatchReq,
  CallUpsertBatchRes,
  CallsFilter,
  CallsQueryReq,
  ModelCost,
  CallRecord,
  PartialCallRecord,
} from './calls.js';
export {
  FeedbackCreateReq,
  FeedbackCreateRes,
  FeedbackBatchCreateReq,
  FeedbackBatchCreateRes,
  FeedbackRecord,
  Aggregation,
  MetricValueType,
  FeedbackMetricSpec,
  FeedbackStatsReq,
  FeedbackStatsBucket,
  FeedbackStatsRes,
} from './feedback.js';
export { REACTION_FEEDBACK_TYPE, NOTE_FEEDBACK_TYPE, MAX_FEEDBACK_NOTE_LENGTH, RUNNABLE_FEEDBACK_TYPE_PREFIX, MAX_FEEDBACK_PAYLOAD_BYTES } from './feedback-types.js';
export { TableRowFilter, TableQueryReq, TableRowSchema, TableQueryRes, TableCreateReq, WeaveTableCreateReq, TableCreateRes } from './tables.js';
export {
  Tool,
  Trajectory,
  TrajectoryGroup,
  Split,
  TrajectoryLogReq,
  TrajectoryMetrics,
  TrajectoryLogRes,
  ExperimentalTrainingConfig,
  TrainingJobCreateReq,
  TrainingJobCreateRes,
} from './trajectories.js';
// weft's training reads (extension endpoints, docs/interface-notes.md)
export {
  TrainingJobRecord,
  TrainingJobReadReq,
  TrainingJobQueryReq,
  TrainingJobListRes,
  StoredTrajectoryGroup,
  TrajectoryQueryReq,
  TrajectoryQueryRes,
  TrajectoryModel,
  TrajectoryModelsReq,
  TrajectoryModelListRes,
} from './training-reads.js';
export { ENDPOINTS, PREVIEW_PREFIX } from './endpoints.js';
// the Weave SDK compatibility endpoints (not in the interface spec)
export {
  ObjectId,
  ObjSchemaForInsert,
  ObjCreateReq,
  ObjCreateRes,
  ObjReadReq,
  ObjSchema,
  ObjReadRes,
  ObjectVersionFilter,
  ObjQueryReq,
  ObjQueryRes,
  FileCreateForm,
  FileCreateRes,
  FileContentReq,
} from './objects.js';
export { CallUpdateReq, CallsDeleteReq } from './call-edits.js';
export { WeaveFeedbackCreateReq } from './weave-feedback.js';
export { WEAVE_ENDPOINTS } from './weave-endpoints.js';
export { MediaRef, MEDIA_REF_TYPE, isMediaRef } from './media.js';
