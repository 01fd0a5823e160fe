/**
 * weft's public API: init, op, flush/shutdown, current-call helpers, the typed Client, errors and wire types.
 * @module
 */
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
export type { ExportReport } from './instrument/sink.js';
export { getExportStats, type ExportStats, type DropReason } from './export/export-stats.js';
export { serialize, type SerializeLimits, type SerializeOptions } from './instrument/serialize.js';
export { setDiagLevel, type DiagLevel } from './internal/diag.js';
export { Client } from './api/client.js';
export type { ClientOptions } from './api/core/client-options.js';
export type { RequestOptions } from './api/core/transport.js';
export type { RawBatchRes } from './api/core/batch-answer.js';
export { JsonlStream } from './api/core/jsonl-stream.js';
export { q, type CallField, type ConvertTarget, type Scalar, type Value } from './api/resources/query-builder.js';
export type { IterateOptions } from './api/resources/calls-pagination.js';
export * from './api/core/api-errors.js';
export type * from './schema/index.js';
export { wrapOpenAI } from './integrations/openai.js';
export type { TokenUsage } from './instrument/usage-model.js';
export { wrapAnthropic } from './integrations/anthropic.js';
export { wrapAISDK } from './integrations/ai-sdk.js';
export * from './eval/index.js';
