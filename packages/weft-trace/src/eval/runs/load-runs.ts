/**
 * Evaluation runs read through the client from existing endpoints: roots by `op_names` (weft's and Weave's names), rows by parent, dataset names from the `Evaluation` objects.
 * @module
 */
import type { Client } from '../../api/client.js';
import { EVAL_OP_NAMES, opNamesFilter, rowOf, runOf, type EvalCallRecord, type EvalRow, type EvalRun } from './run-records.js';

/** The dataset ref of every `Evaluation` object version in the project, by the version's ref. */
async function evaluationDatasets(client: Client, project: string): Promise<Map<string, unknown>> {
  const map = new Map<string, unknown>();
  try {
    const { objs } = await client.objects.query({ project_id: project, filter: { base_object_classes: ['Evaluation'] } });
    for (const o of objs) map.set(`weave:///${project}/object/${o.object_id}:${o.digest}`, (o.val as { dataset?: unknown } | null)?.dataset);
  } catch {
    // a server without the /obj routes (the hosted service): runs are listed without dataset names
  }
  return map;
}

/** The project's evaluation runs, newest first (at most `limit`). */
export async function listRuns(client: Client, project: string, limit = 50): Promise<EvalRun[]> {
  const [roots, datasets] = await Promise.all([
    client.calls.streamQuery({
      project_id: project,
      filter: { op_names: opNamesFilter(project, EVAL_OP_NAMES.evaluate) },
      sort_by: [{ field: 'started_at', order: 'desc' }],
      limit,
      include_costs: true,
    }).toArray(),
    evaluationDatasets(client, project),
  ]);
  return roots.map((r) => runOf(r as EvalCallRecord, (ref) => datasets.get(ref)));
}

/** One run with its rows; `undefined` when `id` is not an evaluation's root call in `project`. */
export async function loadRun(client: Client, project: string, id: string): Promise<{ run: EvalRun; rows: EvalRow[] } | undefined> {
  const [roots, datasets] = await Promise.all([
    client.calls.streamQuery({ project_id: project, filter: { call_ids: [id], op_names: opNamesFilter(project, EVAL_OP_NAMES.evaluate) }, include_costs: true, limit: 1 }).toArray(),
    evaluationDatasets(client, project),
  ]);
  const root = roots[0];
  if (!root) return undefined;
  const calls = await client.calls.streamQuery({ project_id: project, filter: { parent_ids: [root.id], op_names: opNamesFilter(project, EVAL_OP_NAMES.predictAndScore) } }).toArray();
  return { run: runOf(root as EvalCallRecord, (ref) => datasets.get(ref)), rows: calls.map((c) => rowOf(c as EvalCallRecord)) };
}
