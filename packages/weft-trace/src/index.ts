/**
 * weft's public API (`weft-trace`): init, op, flush/shutdown, current-call helpers, the LLM SDK wrappers, the framework integrations,
 * the typed Client, its errors and the wire types. Everything a user may import is listed here by name;
 * the zod schemas themselves are in `weft-trace/schema`, the OTel bridge in `weft-trace/otel`.
 * @module
 */

// tracing: setup, ops, context helpers, feedback, export counters
export { init, flush, shutdown, type FlushOptions } from './init.js';
export type { InitOptions } from './init-options.js';
export { op } from './instrument/op.js';
export type { OpOptions, ChunkOf, OutputOf } from './instrument/op-options.js';
export type { Op, Invoked } from './instrument/wrap.js';
export type { OpDecorator } from './instrument/decorators.js';
export type { SummaryExtra } from './instrument/summary.js';
export { getCurrentCall, requireCurrentCall, type CurrentCall } from './instrument/current-call.js';
export { withAttributes, withThread, withRun, setRunStep, type ThreadOptions, type RunOptions } from './instrument/context-helpers.js';
export { addFeedback, type FeedbackOptions } from './instrument/add-feedback.js';
export { DEFAULT_REDACT_KEYS } from './instrument/redact.js';
export { weftMedia, type MediaValue } from './instrument/media-value.js';
export { MEDIA_REF_TYPE, type MediaRef } from './schema/media.js';
export type { SerializeLimits, SerializeOptions } from './instrument/serialize.js';
export type { ExportReport } from './instrument/sink.js';
export { getExportStats, type ExportStats, type DropReason } from './export/export-stats.js';
export type { SamplingOptions } from './export/sampling-options.js';
export type { SamplingStats } from './export/sampling-stats.js';
export type { FileStats } from './export/file-stats.js';
export { setDiagLevel, type DiagLevel } from './internal/diag.js';

// LLM SDK wrappers
export { wrapOpenAI } from './integrations/openai.js';
export { wrapAnthropic } from './integrations/anthropic.js';
export { wrapAISDK } from './integrations/ai-sdk.js';
export { wrapGoogleGenAI } from './integrations/google-genai.js';
export { wrapClaudeAgentQuery } from './integrations/claude-agent/query.js';
export { wrapBedrock } from './integrations/bedrock/bedrock.js';
export { aiSDKTelemetry, type AISDKTelemetry } from './integrations/ai-sdk-telemetry.js';
export { llmCacheFetch, type LlmCacheFetchOptions } from './integrations/llm-cache/fetch.js';
export type { LlmCacheMode } from './integrations/llm-cache/mode.js';
export type { TokenUsage } from './instrument/usage-model.js';

// framework integrations
export { wrapMCPClient } from './integrations/mcp/client.js';
export { wrapMCPServer } from './integrations/mcp/server.js';
export { WeftTracingProcessor, type AgentsSpan, type AgentsTrace } from './integrations/openai-agents.js';
export { WeftExporter, type MastraTracingEvent, type MastraExportedSpan } from './integrations/mastra/weft-exporter.js';

// the typed client
export { Client } from './api/client.js';
export type { ClientOptions } from './api/core/client-options.js';
export type { RequestOptions } from './api/core/transport.js';
export type { JsonlStream } from './api/core/jsonl-stream.js';
export type { IterateOptions } from './api/resources/calls-pagination.js';
export { q, type CallField, type ConvertTarget, type Scalar, type Value } from './api/resources/query-builder.js';

// errors: one root, status -> class in APIError.generate
export { WeftError, ConfigError, RequestValidationError } from './errors.js';
export {
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RateLimitError,
  InternalServerError,
  ValidationError,
  UnexpectedResponseError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type APIErrorInit,
  type ErrorHeaders,
} from './api/core/api-errors.js';

// wire types (snake_case, as the spec names them); their zod schemas: weft-trace/schema
export type { CallStatus } from './schema/call-status.js';
export type {
  CallException,
  CallRecord,
  CallStartReq,
  CallStartRes,
  CallSummary,
  CallUpsertBatchReq,
  CallUpsertBatchRes,
  CallsFilter,
  CallsQueryReq,
  EndedCallSchemaForInsert,
  LlmUsage,
  ModelCost,
  PartialCallRecord,
  StartedCallSchemaForInsert,
  UpsertBatchItem,
} from './schema/calls.js';
export type {
  Aggregation,
  FeedbackBatchCreateReq,
  FeedbackBatchCreateRes,
  FeedbackCreateReq,
  FeedbackCreateRes,
  FeedbackMetricSpec,
  FeedbackRecord,
  FeedbackStatsBucket,
  FeedbackStatsReq,
  FeedbackStatsRes,
} from './schema/feedback.js';
export type { TableCreateReq, TableCreateRes, TableQueryReq, TableQueryRes, TableRowFilter } from './schema/tables.js';
export type { CallDatasetRow, DatasetAddCallsReq, DatasetAddCallsRes } from './schema/datasets.js';
export type {
  Trajectory,
  TrajectoryGroup,
  TrajectoryLogReq,
  TrajectoryLogRes,
  TrajectoryMetrics,
  TrainingJobCreateReq,
  TrainingJobCreateRes,
} from './schema/trajectories.js';
export type { Operand, Operation, Query } from './schema/query.js';
export type { SortBy } from './schema/common.js';
export type { ValidationErrorItem } from './schema/validation-error.js';
export type {
  TrainingJobRecord,
  TrainingJobListRes,
  StoredTrajectoryGroup,
  TrajectoryQueryRes,
  TrajectoryModel,
  TrajectoryModelListRes,
} from './schema/training-reads.js';

// trajectories from traces: a traced rollout becomes a trajectory; groups of rollouts for the training endpoints
export { trajectory, setReward, addMetric, addLog, isTrajectory, gatherTrajectoryGroups } from './trajectories/index.js';
export type { TrajectoryOp, CapturedTrajectory, GatherOptions } from './trajectories/index.js';

// prompts: versioned by content, labelled, formatted into messages that carry their ref (docs/prompts.md)
export { publishPrompt, getPrompt, setPromptLabel, readPromptLabels, definePrompt, Prompt, PromptVariableError, clearPromptCache, DEFAULT_PROMPT_TTL_MS } from './prompts/index.js';
export type { PromptDefinition, PromptMessage, PromptRequest, PromptVersion, GetPromptOptions, PromptTarget, PromptLabels, LabelMove, SetLabelOptions, TemplateValues, TemplateVariables } from './prompts/index.js';

// evaluations: datasets, scorers, evaluate()
export { Dataset, evaluate, exactMatch, stringSimilarity, jsonValid, schemaMatch, numericCloseness, llmJudge } from './eval/index.js';
export type {
  DatasetOptions,
  DatasetRow,
  PublishedDataset,
  EvaluateOptions,
  EvaluationResult,
  EvaluationRow,
  EvaluationSummary,
  ScoreSummary,
  Scorer,
  ScorerArgs,
  ScorerResult,
  ScoreValue,
  TextScorerOptions,
  SafeParseSchema,
  NumericClosenessOptions,
  LlmJudgeOptions,
} from './eval/index.js';
