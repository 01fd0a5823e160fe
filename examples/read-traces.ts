// Reads back every call of the traces a run produced, using the client's streaming query and the `q` query builder.
import { type Client, q } from '../packages/weft-trace/src/index.js';
import type { CallRecord } from '../packages/weft-trace/src/schema/index.js';

/**
 * All calls of the traces in `projectId` whose root started at or after `sinceMs`
 * (so a shared server's older traces are left out).
 */
export async function readTraces(client: Client, projectId: string, sinceMs: number): Promise<CallRecord[]> {
  const since = q.expr(q.gte(q.field('started_at'), new Date(sinceMs).toISOString()));
  const roots = await client.calls.streamQuery({ project_id: projectId, filter: { trace_roots_only: true }, query: since }).toArray();
  const traceIds = roots.map((root) => root.trace_id);
  if (traceIds.length === 0) return [];
  return client.calls.streamQuery({ project_id: projectId, filter: { trace_ids: traceIds } }).toArray();
}
