/**
 * The fill of dynamic and monitor-fed queues, outside the write path: a run reads, per such queue, the calls started
 * since its cursor that match its filter and query (a sampled fraction, decided by the call id as a monitor samples)
 * and the feedback its monitor stored since its cursor whose score is under the threshold, adds their calls as items
 * and moves the cursors. Called by the server's periodic job (queue-fill-job.ts) and by `POST /weft/queues/fill`.
 * Without such a queue a run is one read of the `queues` table.
 * @module
 */
import { isSampled } from 'weft-trace/eval';
import { monitorMetric, monitorTriggerRef } from 'weft-trace/wire';
import type { CallsQuery } from '../calls/query/query-sql.js';
import type { FeedbackStore } from '../feedback/feedback-store.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { itemOfCall, type ListCalls } from './queue-items.js';
import type { NewItem, QueueStore, StoredQueue } from './queue-store.js';

/** Calls (and monitor scores) read per queue per run; the next run goes on from the cursor. */
const PAGE = 1000;

/** What a fill reads and writes. */
export interface FillStores {
  queues: QueueStore;
  feedback: FeedbackStore;
  monitors: MonitorStore;
  listCalls: ListCalls;
}

/** The value at a dotted path of a payload. */
const at = (payload: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), payload);

/** The dynamic part of a fill: items of the new matching calls up to `until`, and the cursor after them. */
async function newCalls(stores: FillStores, q: StoredQueue, until: string): Promise<{ items: NewItem[]; cursor: Record<string, string> }> {
  const cursor = q.cursor ?? {};
  const from = cursor['started_at'] ?? q.created_at;
  const started = { $getField: 'started_at' };
  // after the cursor: a later start, or the same start and a greater id
  const after = cursor['id']
    ? { $or: [{ $gt: [started, { $literal: from }] }, { $and: [{ $eq: [started, { $literal: from }] }, { $gt: [{ $getField: 'id' }, { $literal: cursor['id'] }] }] }] }
    : { $gte: [started, { $literal: from }] };
  const window = [after, { $lte: [started, { $literal: until }] }];
  const expr = q.dynamic!.query ? { $and: [q.dynamic!.query.$expr, ...window] } : { $and: window };
  const calls = await stores.listCalls({
    project_id: q.project_id, filter: q.dynamic!.filter ?? undefined, query: { $expr: expr }, limit: PAGE,
    sort_by: [{ field: 'started_at', order: 'asc' }, { field: 'id', order: 'asc' }], columns: ['id', 'trace_id', 'thread_id', 'started_at'],
  } as CallsQuery);
  const last = calls.at(-1);
  return {
    items: calls.filter((c) => isSampled(c.id as string, q.dynamic!.sample_rate)).map((c) => itemOfCall(q.scope, c)),
    cursor: last ? { started_at: last.started_at as string, id: last.id as string } : { started_at: from, ...(cursor['id'] ? { id: cursor['id'] } : {}) },
  };
}

/** The monitor part of a fill: items of the calls the monitor scored under the threshold since the cursor. */
async function lowScores(stores: FillStores, q: StoredQueue): Promise<{ items: NewItem[]; cursor: Record<string, string> }> {
  const cursor = q.cursor ?? {};
  const monitor = (await stores.monitors.list(q.project_id)).find((m) => m.id === q.monitor!.monitor_id);
  if (!monitor) return { items: [], cursor: {} };
  const after = cursor['fb_created_at'] ? { created_at: cursor['fb_created_at'], id: cursor['fb_id']! } : null;
  const scored = await stores.feedback.afterCursor(q.project_id, monitorTriggerRef(q.project_id, monitor.id), after, PAGE);
  const path = monitorMetric(monitor.scorer).json_path;
  const low = scored.filter((f) => {
    const v = at(f.payload, path);
    const n = typeof v === 'boolean' ? Number(v) : v;
    return f.call_id !== null && typeof n === 'number' && n < q.monitor!.threshold;
  });
  const last = scored.at(-1);
  return {
    items: low.map((f) => itemOfCall(q.scope, { id: f.call_id!, trace_id: null, thread_id: null })),
    cursor: last ? { fb_created_at: last.created_at, fb_id: last.id } : after ? { fb_created_at: after.created_at, fb_id: after.id } : {},
  };
}

/**
 * Runs the fill of the dynamic and monitor-fed queues of a project (of every project when `projectId` is undefined).
 * @param settleMs - calls started less than this long before `now` wait for a later run (late arrivals). @defaultValue 0
 * @returns how many items were added.
 */
export async function fillQueues(stores: FillStores, now: Date, projectId?: string, settleMs = 0): Promise<number> {
  const until = new Date(now.getTime() - settleMs).toISOString();
  let added = 0;
  for (const q of await stores.queues.list(projectId, true)) {
    const parts = [q.dynamic ? await newCalls(stores, q, until) : undefined, q.monitor ? await lowScores(stores, q) : undefined];
    const items = parts.flatMap((p) => p?.items ?? []);
    if (items.length > 0) added += await stores.queues.addItems(q, items, now);
    const cursor = Object.assign({}, ...parts.map((p) => p?.cursor ?? {})) as Record<string, string>;
    if (JSON.stringify(cursor) !== JSON.stringify(q.cursor ?? {})) await stores.queues.saveCursor(q, cursor);
  }
  return added;
}
