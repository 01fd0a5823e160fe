/**
 * The `weft-trace/eval` entry point: evaluation runs and monitors outside `evaluate()` (which `weft-trace` exports):
 * datasets, the monitor loop that scores ended calls against a store (`MonitorLoop` over a `MonitorPort`: the server
 * runs it on its own store, `weft monitor run` over the client) and its built-in scorers, and the runs an evaluation
 * recorded, loaded and compared (`weft eval list|show|compare`), and a trace's model calls as a `WEFT_LLM_CACHE`
 * cassette (`weft calls cassette`).
 * @module
 */
export { Dataset } from './eval/dataset.js';
export { MonitorLoop, type MonitorLoopOptions } from './eval/monitors/monitor-loop.js';
export type { EndedCall, MonitorPort } from './eval/monitors/monitor-port.js';
export { MONITOR_BUILTINS } from './eval/monitors/monitor-scorer.js';
export { isSampled } from './eval/monitors/sampling.js';
export { compareRuns, type RowComparison, type ScoreComparison } from './eval/runs/compare.js';
export { listRuns, loadRun } from './eval/runs/load-runs.js';
export type { EvalRow, EvalRun } from './eval/runs/run-records.js';
export { addToCassette, cassetteOfCalls, type CallsCassette, type SkippedCall, type TreeCall } from './integrations/llm-cache/calls-cassette.js';
export type { CassetteEntry } from './integrations/llm-cache/cassette.js';
