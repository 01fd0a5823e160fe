/**
 * The `weft-trace/viewer` entry point: what a trace viewer in the browser (weft-server's, packages/weft-server/src/ui)
 * takes from the SDK: wire types, endpoint paths and pure helpers over calls, evaluation runs and monitors, none of
 * which imports zod or a Node.js module (a viewer's bundle stays small; the schemas that check a body are
 * `weft-trace/wire`).
 * @module
 */
export { jsonlLineBatches } from './api/core/jsonl-lines.js';
export { type RowComparison, type RunComparison, compareRuns } from './eval/runs/compare.js';
export { EVAL_OP_NAMES, type EvalCallRecord, type EvalRow, type EvalRun, opNamesFilter, rowOf, runOf } from './eval/runs/run-records.js';
export { CALL_STATUSES, type CallStatus } from './schema/call-status.js';
export type { CallsOverviewRes, OverviewBucket, OverviewFigures } from './schema/calls-overview.js';
export type { CallRecord } from './schema/calls.js';
export { WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export { MONITOR_PATHS, monitorMetric, monitorTriggerRef } from './schema/monitor-refs.js';
export type { Monitor } from './schema/monitors.js';
export { annotationFeedbackType, type AnnotationField, type AnnotationFieldSpec, answerProblem, type QueueItem, type QueueProgress, REVIEW_PATHS } from './schema/review-refs.js';
export type { Queue } from './schema/review.js';
