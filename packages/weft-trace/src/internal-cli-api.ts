/**
 * `weft-trace/internal-cli`: what weft-server's `weft` command line (packages/weft-server/src/cli) takes from the
 * SDK, by name: the typed client, the wire schemas, the spool flush, evaluation runs, progress. A workspace-only
 * entry, as `weft-trace/internal` (internal-api.ts) is.
 * @module
 */
export { Client } from './api/client.js';
export { APIConnectionError, APIError, UnexpectedResponseError } from './api/core/api-errors.js';
export { DEFAULT_BASE_URL } from './api/core/client-options.js';
export { jsonlLines } from './api/core/jsonl-lines.js';
export { q } from './api/resources/query-builder.js';
export { Dataset } from './eval/dataset.js';
export { MonitorLoop } from './eval/monitors/monitor-loop.js';
export type { EndedCall, MonitorPort } from './eval/monitors/monitor-port.js';
export { MONITOR_BUILTINS } from './eval/monitors/monitor-scorer.js';
export { objectRef } from './eval/refs.js';
export { compareRuns, type RowComparison, type ScoreComparison } from './eval/runs/compare.js';
export { listRuns, loadRun } from './eval/runs/load-runs.js';
export type { EvalRow, EvalRun } from './eval/runs/run-records.js';
export type { ExportOptions } from './export/export-options.js';
export { flushSpoolDir } from './export/spool-flush.js';
export { defaultSpoolDir } from './export/spool-location.js';
export { type Progress, rateSummary, startProgress } from './internal/progress.js';
export { safeMessage } from './internal/safe-message.js';
export { viewerLink } from './internal/viewer-link.js';
export { CALL_STATUSES, type CallStatus, deriveStatus, isCallStatus } from './schema/call-status.js';
export { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeRes } from './schema/calls-retention.js';
export type { CallRecord, CallsQueryReq, UpsertBatchItem } from './schema/calls.js';
export { WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export { Aggregation, type FeedbackCreateReq, type FeedbackRecord, type FeedbackStatsReq, type FeedbackStatsRes } from './schema/feedback.js';
export { Monitor, MONITOR_PATHS, MonitorDeleteRes, MonitorListRes, MonitorProgressRes } from './schema/monitors.js';
export { isProjectId, projectIdMessage } from './schema/project-id.js';
export type { Operation } from './schema/query.js';
export { Split } from './schema/trajectories.js';
export { EXPORT_FORMATS, type ExportFormat, groupLines, openAiSftLines } from './trajectories/export-formats.js';
