// Upsert-batch items of complete calls shaped like what op() sends (UUIDv7 ids, small inputs and output, a summary), for the server benches.
import { newId } from '../../packages/weft-trace/src/internal/ids.js';

/** Start time of the next generated call: calls start 1 ms apart, in id order, as a traced program's do. */
let clock = Date.now() - 3_600_000;

/** `n` complete calls of `project`: each call's start item, then its end item. */
export function callBatchItems(project: string, n: number): Record<string, unknown>[] {
  const batch: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId();
    const started_at = new Date(clock++).toISOString();
    batch.push({ mode: 'start', req: { start: { project_id: project, id, trace_id: id, op_name: 'add', started_at, inputs: { a: i, b: 2 }, attributes: {} } } });
    batch.push({ mode: 'end', req: { end: { project_id: project, id, ended_at: started_at, output: i + 2, summary: { status_counts: { success: 1, error: 0 }, usage: {} } } } });
  }
  return batch;
}
