/**
 * Review queues of one database (issue 50, a weft extension): queues created, listed and read, items added and listed,
 * progress counted, a fill's cursor saved. The only code that runs SQL on `queues` and `queue_items` besides the claims
 * (queue-claims.ts), for both engines (migration 14 of each).
 * @module
 */
import type { z } from 'zod';
import { newId } from 'weft-trace/wire';
import type { Queue, QueueCreateReq, QueueItem, QueueProgress } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, get, insert, run, type Steps } from '../db/sql-steps.js';
import { type ClaimRequest, claimNext, type Finish, finishItem, ITEM_COLUMNS, reopenItem } from './queue-claims.js';

/** A validated create body (zod output). */
export type QueueInput = z.output<typeof QueueCreateReq>;

/** An item to insert: the call its answers land on, a pair's other call, the trace or thread it stands for. */
export interface NewItem {
  call_id: string;
  other_call_id?: string | null;
  trace_id?: string | null;
  thread_id?: string | null;
}

/** Which items `items` reads: by status (`pending` includes expired claims), finished by a reviewer, one by id; a page. */
export interface ItemsQuery {
  status?: string | null;
  reviewer?: string | null;
  id?: string;
  limit: number;
  offset: number;
}

type QueueRow = Omit<Queue, 'fields' | 'dynamic' | 'monitor'> & { fields: string; dynamic: string | null; monitor: string | null; cursor: string | null };

const QUEUE_COLUMNS = 'project_id, id, name, instructions, fields, scope, dynamic, monitor, cursor, created_at';

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** A stored queue and its fill cursor (JSON, or null before the first fill). */
export type StoredQueue = Queue & { cursor: Record<string, string> | null };

const toQueue = (row: QueueRow): StoredQueue => ({
  ...row, fields: JSON.parse(row.fields) as string[], dynamic: parse(row.dynamic), monitor: parse(row.monitor), cursor: parse(row.cursor),
});

function* create(_d: Dialect, input: QueueInput, now: Date): Steps<Queue | undefined> {
  const queue: Queue = {
    id: newId(), project_id: input.project_id, name: input.name, instructions: input.instructions, fields: input.fields, scope: input.scope,
    dynamic: input.dynamic ?? null, monitor: input.monitor ?? null, created_at: now.toISOString(),
  };
  const stored = yield* run(`INSERT INTO queues (${QUEUE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, [
    queue.project_id, queue.id, queue.name, queue.instructions, JSON.stringify(queue.fields), queue.scope,
    queue.dynamic ? JSON.stringify(queue.dynamic) : null, queue.monitor ? JSON.stringify(queue.monitor) : null, null, queue.created_at,
  ]);
  return stored > 0 ? queue : undefined;
}

function* list(_d: Dialect, projectId: string | undefined, fillingOnly: boolean): Steps<StoredQueue[]> {
  const where = [projectId === undefined ? '1 = 1' : 'project_id = ?', fillingOnly ? '(dynamic IS NOT NULL OR monitor IS NOT NULL)' : '1 = 1'];
  const rows = yield* all<QueueRow>(`SELECT ${QUEUE_COLUMNS} FROM queues WHERE ${where.join(' AND ')} ORDER BY created_at, id`,
    projectId === undefined ? [] : [projectId]);
  return rows.map(toQueue);
}

function* read(_d: Dialect, projectId: string, idOrName: string): Steps<StoredQueue | undefined> {
  const row = yield* get<QueueRow>(`SELECT ${QUEUE_COLUMNS} FROM queues WHERE project_id = ? AND (id = ? OR name = ?)`, [projectId, idOrName, idOrName]);
  return row ? toQueue(row) : undefined;
}

function* addItems(_d: Dialect, queue: Queue, items: readonly NewItem[], now: Date): Steps<number> {
  if (items.length === 0) return 0;
  const at = now.toISOString();
  const inserted = yield* insert({
    table: 'queue_items',
    fixed: { project_id: ['text', queue.project_id], queue_id: ['text', queue.id], status: ['text', 'pending'], added_at: ['text', at] },
    columns: { id: 'text', call_id: 'text', other_call_id: 'text', trace_id: 'text', thread_id: 'text' },
    rows: items.map((i) => [newId(), i.call_id, i.other_call_id ?? '', i.trace_id ?? null, i.thread_id ?? null]),
    tail: 'ON CONFLICT DO NOTHING', returning: 'id',
  });
  return inserted.length;
}

function* items(_d: Dialect, queue: Queue, q: ItemsQuery, now: Date): Steps<QueueItem[]> {
  const where = ['project_id = ?', 'queue_id = ?'];
  const params: unknown[] = [queue.project_id, queue.id];
  if (q.status === 'pending') where.push(`(status = 'pending' OR (status = 'taken' AND claim_expires_at <= ?))`), params.push(now.toISOString());
  else if (q.status === 'taken') where.push(`status = 'taken' AND claim_expires_at > ?`), params.push(now.toISOString());
  else if (q.status) where.push('status = ?'), params.push(q.status);
  if (q.reviewer) where.push('reviewer = ?'), params.push(q.reviewer);
  if (q.id) where.push('id = ?'), params.push(q.id);
  return yield* all<QueueItem>(`SELECT ${ITEM_COLUMNS} FROM queue_items WHERE ${where.join(' AND ')} ORDER BY added_at, id LIMIT ? OFFSET ?`,
    [...params, q.limit, q.offset]);
}

function* progress(_d: Dialect, queue: Queue, now: Date): Steps<QueueProgress> {
  const rows = yield* all<{ status: string; n: number | string }>(`SELECT CASE WHEN status = 'taken' AND claim_expires_at <= ? THEN 'pending' ELSE status END AS status,
    count(*) AS n FROM queue_items WHERE project_id = ? AND queue_id = ? GROUP BY 1`, [now.toISOString(), queue.project_id, queue.id]);
  const out: QueueProgress = { total: 0, pending: 0, taken: 0, done: 0, skipped: 0, reviewers: {} };
  for (const r of rows) {
    out[r.status as 'pending' | 'taken' | 'done' | 'skipped'] += Number(r.n);
    out.total += Number(r.n);
  }
  const byReviewer = yield* all<{ reviewer: string; status: 'done' | 'skipped'; n: number | string }>(`SELECT reviewer, status, count(*) AS n
    FROM queue_items WHERE project_id = ? AND queue_id = ? AND status IN ('done', 'skipped') GROUP BY reviewer, status`, [queue.project_id, queue.id]);
  for (const r of byReviewer) (out.reviewers[r.reviewer] ??= { done: 0, skipped: 0 })[r.status] = Number(r.n);
  return out;
}

function* saveCursor(_d: Dialect, queue: Queue, cursor: Record<string, string>): Steps<void> {
  yield* run('UPDATE queues SET cursor = ? WHERE project_id = ? AND id = ?', [JSON.stringify(cursor), queue.project_id, queue.id]);
}

/** Review queues of every project in one database. */
export class QueueStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /** Stores a new queue (UUIDv7 id). @returns it, or undefined when the project has a queue of that name. */
  create(input: QueueInput, now: Date = new Date()): Out<W, Queue | undefined> {
    return this.db.run(create, input, now);
  }

  /** The queues of a project (every project when undefined), oldest first; `fillingOnly`: dynamic or monitor-fed ones. */
  list(projectId: string | undefined, fillingOnly = false): Out<W, StoredQueue[]> {
    return this.db.run(list, projectId, fillingOnly);
  }

  /** A queue by id or name, or undefined. */
  read(projectId: string, idOrName: string): Out<W, StoredQueue | undefined> {
    return this.db.run(read, projectId, idOrName);
  }

  /** Adds items, pending, in one transaction; an item the queue holds (same call, same pair) is not added again. @returns how many were added. */
  addItems(queue: Queue, newItems: readonly NewItem[], now: Date = new Date()): Out<W, number> {
    return this.db.transaction(addItems, queue, newItems, now);
  }

  /** A page of items, oldest added first (so a reviewer's list keeps its order when they answer one again); `pending` includes expired claims. */
  items(queue: Queue, q: ItemsQuery, now: Date = new Date()): Out<W, QueueItem[]> {
    return this.db.run(items, queue, q, now);
  }

  /** The queue's progress: items by status (an expired claim counts as pending), each reviewer's done and skipped. */
  progress(queue: Queue, now: Date = new Date()): Out<W, QueueProgress> {
    return this.db.run(progress, queue, now);
  }

  /** Saves a fill's cursor. */
  saveCursor(queue: Queue, cursor: Record<string, string>): Out<W, void> {
    return this.db.run(saveCursor, queue, cursor);
  }

  /** Takes the next item for a reviewer in one statement (see `claimNext`). @returns the item, or undefined when none is free. */
  claim(queue: Queue, req: ClaimRequest, now: Date = new Date()): Out<W, QueueItem | undefined> {
    return this.db.transaction(claimNext, queue, req, now);
  }

  /** Marks an item done or skipped by a reviewer (see `finishItem`). @returns the item, or undefined when the reviewer may not. */
  finish(queue: Queue, itemId: string, how: Finish, now: Date = new Date()): Out<W, QueueItem | undefined> {
    return this.db.transaction(finishItem, queue, itemId, how, now);
  }

  /** Puts an item finished by `finish` back as it was (its answers could not be stored). */
  reopen(queue: Queue, before: QueueItem): Out<W, void> {
    return this.db.run(reopenItem, queue, before);
  }
}
