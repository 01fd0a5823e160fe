/**
 * The items a `queues/add` body names, as the calls their answers land on: a call as it is; a trace as its root call;
 * a thread as its latest root call; a pair as its two calls; a calls filter and query as every call they match now
 * (with its trace or thread for a queue of that scope).
 * @module
 */
import type { z } from 'zod';
import type { ItemRef, Queue, QueueAddReq } from 'weft-trace/wire';
import type { CallsQuery } from '../calls/query/query-sql.js';
import type { WireRecord } from '../calls/query/columns.js';
import { HttpError } from '../http/http-error.js';
import type { NewItem } from './queue-store.js';

/** Reads every call a query matches (`ServerStore.listCalls`). */
export type ListCalls = (query: CallsQuery) => Promise<WireRecord[]>;

const COLUMNS = ['id', 'trace_id', 'thread_id', 'started_at'];

/** The item of a matched call in a queue of `scope`. */
export function itemOfCall(scope: Queue['scope'], r: Record<string, unknown>): NewItem {
  return { call_id: r.id as string, trace_id: scope === 'trace' ? (r.trace_id as string) : null, thread_id: scope === 'thread' ? ((r.thread_id as string | null) ?? null) : null };
}

/** The item of one hand-added ref. @throws HttpError 422 (at `loc`) for a trace or thread without a root call. */
async function itemOfRef(list: ListCalls, projectId: string, ref: ItemRef, loc: string[]): Promise<NewItem> {
  if ('call_id' in ref) return { call_id: ref.call_id };
  if ('call_ids' in ref) return { call_id: ref.call_ids[0], other_call_id: ref.call_ids[1] };
  const byTrace = 'trace_id' in ref;
  const [root] = await list({
    project_id: projectId, filter: byTrace ? { trace_ids: [ref.trace_id], trace_roots_only: true } : { thread_ids: [ref.thread_id], trace_roots_only: true },
    sort_by: [{ field: 'started_at', order: 'desc' }], limit: 1, columns: COLUMNS,
  } as CallsQuery);
  if (!root) {
    const what = byTrace ? `trace ${JSON.stringify(ref.trace_id)}` : `thread ${JSON.stringify(ref.thread_id)}`;
    throw HttpError.validation([{ loc, msg: `no root call of ${what} in project ${projectId}`, type: 'value_error' }]);
  }
  return byTrace ? { call_id: root.id as string, trace_id: ref.trace_id } : { call_id: root.id as string, thread_id: ref.thread_id };
}

/**
 * The items of a validated `queues/add` body, each once.
 * @throws HttpError 422 for a trace or thread without a root call, or a body naming neither items nor a filter.
 */
export async function itemsToAdd(list: ListCalls, queue: Queue, body: z.output<typeof QueueAddReq>): Promise<NewItem[]> {
  if (!body.items && !body.filter && !body.query) {
    throw HttpError.validation([{ loc: ['body'], msg: 'expected items, or a filter or query of calls to add', type: 'missing' }]);
  }
  const out: NewItem[] = [];
  for (const [i, ref] of (body.items ?? []).entries()) out.push(await itemOfRef(list, queue.project_id, ref, ['body', 'items', String(i)]));
  if (body.filter || body.query) {
    const matched = await list({ project_id: queue.project_id, filter: body.filter ?? undefined, query: body.query ?? undefined, limit: body.limit, columns: COLUMNS } as CallsQuery);
    out.push(...matched.map((r) => itemOfCall(queue.scope, r)));
  }
  const seen = new Set<string>();
  return out.filter((item) => {
    const key = `${item.call_id}\u0000${item.other_call_id ?? ''}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
