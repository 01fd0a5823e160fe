/**
 * The `weft-trace/viewer` entry point: what a trace viewer in the browser (weft-server's, packages/weft-server/src/ui)
 * takes from the SDK: wire types, endpoint paths and pure helpers over calls, evaluation runs and monitors, none of
 * which imports zod or a Node.js module (a viewer's bundle stays small; the schemas that check a body are
 * `weft-trace/wire`).
 * @module
 */
export { jsonlLineBatches } from './api/core/jsonl-lines.js';
export { type RowComparison, type RunComparison, compareRuns } from './eval/runs/compare.js';
export { EVAL_OP_NAMES, type EvalCallRecord, type EvalRow, type EvalRun, opNamesFilter, rowKey, rowOf, runOf } from './eval/runs/run-records.js';
export { CALL_STATUSES, type CallStatus } from './schema/call-status.js';
export type { CallsOverviewRes, OverviewBucket, OverviewFigures } from './schema/calls-overview.js';
export type { CallRecord } from './schema/calls.js';
export { callRef, type CallDatasetRow, DATASET_PATHS, expectedFromText, parseCallRef } from './schema/dataset-rows.js';
export { ENDPOINTS, OVERVIEW_HEADERS, WEFT_PROJECTS_PATH } from './schema/endpoints.js';
export type { ObjSchema } from './schema/objects.js';
export type { DatasetAddCallsRes } from './schema/datasets.js';
export { WEAVE_ENDPOINTS } from './schema/weave-endpoints.js';
export { objectRef, parseObjectRef, parseTableRef } from './eval/refs.js';
export { MONITOR_PATHS, monitorMetric, monitorTriggerRef } from './schema/monitor-refs.js';
export type { Monitor } from './schema/monitors.js';
export { checkLabelName, type LabelMove, labelsObjectId, labelsOf, labelsValue, moveLabel, type PromptLabels } from './prompts/label-moves.js';
export { LABELS_CLASS, PROMPT_CLASS } from './prompts/prompt-classes.js';
export type { PromptMessage, PromptValue } from './prompts/prompt-value.js';
export { PROMPT_REF_ATTRIBUTE } from './prompts/prompt-marker.js';
export { variablesOf } from './prompts/prompt-template.js';
export { isMediaRef, MEDIA_REF_TYPE } from './schema/media-ref.js';
export type { MediaRef } from './schema/media.js';
export { annotationFeedbackType, type AnnotationField, type AnnotationFieldSpec, answerProblem, type QueueItem, type QueueProgress, REVIEW_PATHS } from './schema/review-refs.js';
export type { Queue } from './schema/review.js';
