/**
 * The server's rollup on SQLite: after a batch is written, the traces it touched that hold OTel span calls get their summaries rolled up again (calls/rollup.ts).
 * @module
 */
import type { Prepare } from '../db/statement-cache.js';
import { rollUpTrace, type RollupRow } from './rollup.js';

/** A call a batch wrote: its key, and its trace id when the batch carried its start. */
export interface TouchedCall {
  projectId: string;
  id: string;
  traceId?: string;
}

/**
 * Any span call in the project (the partial index `calls_otel`): a project without one is never rolled up. `INDEXED
 * BY`, because SQLite's planner otherwise takes the primary key's `project_id` prefix and reads every call of the
 * project to find none (a cost per batch growing with the project: 3 ms per batch at 30,000 calls).
 */
const ANY_OTEL = 'SELECT 1 FROM calls INDEXED BY calls_otel WHERE project_id = ? AND otel_dump IS NOT NULL LIMIT 1';
const TRACE_OF = 'SELECT trace_id FROM calls WHERE project_id = ? AND id = ? AND trace_id IS NOT NULL';
const TRACE_HAS_OTEL = 'SELECT 1 FROM calls WHERE project_id = ? AND trace_id = ? AND otel_dump IS NOT NULL LIMIT 1';
const TRACE_ROWS = `SELECT id, parent_id, otel_dump IS NOT NULL AS otel, summary, sent_summary FROM calls
  WHERE project_id = ? AND trace_id = ? AND started_at IS NOT NULL`;
const SET_SUMMARY = 'UPDATE calls SET summary = ?, sent_summary = ? WHERE project_id = ? AND id = ?';

/**
 * Rolls up status counts and usage in every trace `touched` reaches that holds a span call, so a span's failure and
 * tokens reach its ancestors whichever order starts and ends arrive in. Costs one indexed probe per project of the
 * batch when the project holds no span call (weft's op() traces count their own). Run it in the batch's transaction,
 * after its rows are written.
 *
 * @param prepare - statement source of a read-write connection.
 * @param touched - the calls the batch wrote.
 */
export function rollUpTouched(prepare: Prepare, touched: readonly TouchedCall[]): void {
  const otelProjects = new Map<string, boolean>();
  const traces = new Map<string, Set<string>>();
  for (const call of touched) {
    let any = otelProjects.get(call.projectId);
    if (any === undefined) otelProjects.set(call.projectId, (any = prepare(ANY_OTEL).get(call.projectId) !== undefined));
    if (!any) continue;
    const traceId = call.traceId ?? (prepare(TRACE_OF).get(call.projectId, call.id) as { trace_id: string } | undefined)?.trace_id;
    if (traceId === undefined) continue;
    let set = traces.get(call.projectId);
    if (!set) traces.set(call.projectId, (set = new Set()));
    set.add(traceId);
  }
  for (const [projectId, traceIds] of traces) {
    for (const traceId of traceIds) {
      if (prepare(TRACE_HAS_OTEL).get(projectId, traceId) === undefined) continue;
      const rows = prepare(TRACE_ROWS).all(projectId, traceId) as RollupRow[];
      const set = prepare(SET_SUMMARY);
      for (const w of rollUpTrace(rows)) set.run(w.summary, w.sent_summary, projectId, w.id);
    }
  }
}
