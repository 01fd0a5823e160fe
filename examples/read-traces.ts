// Reads back every call of the traces a run produced, using the client's streaming query.
import type { Client } from '../src/index.js';
import type { CallRecord } from '../src/schema/index.js';

/** Collects an async iterable into an array. */
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * All calls of the traces in `projectId` whose root started at or after `sinceMs`
 * (so a shared server's older traces are left out).
 */
export async function readTraces(client: Client, projectId: string, sinceMs: number): Promise<CallRecord[]> {
  const roots = await collect(client.calls.streamQuery({ project_id: projectId, filter: { trace_roots_only: true } }));
  const traceIds = roots.filter((root) => Date.parse(root.started_at) >= sinceMs).map((root) => root.trace_id);
  if (traceIds.length === 0) return [];
  return collect(client.calls.streamQuery({ project_id: projectId, filter: { trace_ids: traceIds } }));
}
