/**
 * The Evaluations page's reads: runs (roots named `Evaluation.evaluate`, weft's or a Weave SDK's) and each run's rows, through `/calls/stream_query`, read by the SDK's pure run readers.
 * @module
 */
import { streamQuery } from '../api';
import { EVAL_OP_NAMES, opNamesFilter, rowOf, runOf, type EvalCallRecord, type EvalRow, type EvalRun } from 'weft-trace/viewer';

/**
 * The project's runs, newest first (at most 200), then any of `linked` (the runs a compare link names) the list left
 * out (older than the 200 newest), so a linked run always has its row.
 */
export async function loadRuns(project: string, linked: readonly string[] = [], signal?: AbortSignal): Promise<EvalRun[]> {
  const evaluate = opNamesFilter(project, EVAL_OP_NAMES.evaluate);
  const roots = await streamQuery({ project_id: project, filter: { op_names: evaluate }, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 200, include_costs: true }, signal);
  const missing = linked.filter((id) => !roots.some((r) => r.id === id));
  if (missing.length > 0) roots.push(...await streamQuery({ project_id: project, filter: { op_names: evaluate, call_ids: missing }, include_costs: true }, signal));
  return roots.map((r) => runOf(r as unknown as EvalCallRecord));
}

/** The rows of a run (its `predict_and_score` calls). */
export async function loadRows(project: string, runId: string, signal?: AbortSignal): Promise<EvalRow[]> {
  const calls = await streamQuery({ project_id: project, filter: { parent_ids: [runId], op_names: opNamesFilter(project, EVAL_OP_NAMES.predictAndScore) } }, signal);
  return calls.map((c) => rowOf(c as unknown as EvalCallRecord));
}
