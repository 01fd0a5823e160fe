/**
 * Who reviews which item, decided by the database: taking the next item is one `UPDATE ... RETURNING` whose
 * condition (pending, or taken with an expired claim) is checked on the row it changes, so two reviewers asking at
 * once never get the same item, on either engine. SQLite runs the statement under its write lock; PostgreSQL picks
 * the row `FOR UPDATE SKIP LOCKED` (a row another transaction is taking is passed over, not waited for) and checks
 * the condition again on the row it locked.
 * @module
 */
import type { Queue, QueueItem } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import { get, run, type Steps } from '../db/sql-steps.js';

/** What `claimNext` takes: the reviewer and how long the claim lasts. */
export interface ClaimRequest {
  reviewer: string;
  /** Seconds until the claim expires and the item is pending again. */
  claimSeconds: number;
}

/** How an item is finished, and by whom. */
export interface Finish {
  status: 'done' | 'skipped';
  reviewer: string;
}

/** The columns of an item as the wire has them (`other_call_id` `''` read as null). */
export const ITEM_COLUMNS = `id, queue_id, project_id, call_id, NULLIF(other_call_id, '') AS other_call_id, trace_id, thread_id, status, reviewer,
  claim_expires_at, done_at, added_at`;

/** An item free to take: pending, or taken by a claim that has expired (`?`: now). */
const FREE = `(status = 'pending' OR (status = 'taken' AND claim_expires_at <= ?))`;

/**
 * The reviewer's item: the one they hold (its claim renewed), else the oldest free one, taken for `claimSeconds`.
 * @returns the item, or undefined when the queue has no free item.
 */
export function* claimNext(d: Dialect, queue: Queue, req: ClaimRequest, now: Date): Steps<QueueItem | undefined> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + req.claimSeconds * 1000).toISOString();
  const key = [queue.project_id, queue.id];
  const held = yield* get<QueueItem>(`UPDATE queue_items SET claim_expires_at = ? WHERE project_id = ? AND queue_id = ? AND id = (
      SELECT id FROM queue_items WHERE project_id = ? AND queue_id = ? AND status = 'taken' AND reviewer = ? AND claim_expires_at > ?
      ORDER BY added_at, id LIMIT 1)
    RETURNING ${ITEM_COLUMNS}`, [until, ...key, ...key, req.reviewer, at]);
  if (held) return held;
  const lock = d.engine === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  return yield* get<QueueItem>(`UPDATE queue_items SET status = 'taken', reviewer = ?, claim_expires_at = ?
    WHERE project_id = ? AND queue_id = ? AND ${FREE} AND id = (
      SELECT id FROM queue_items WHERE project_id = ? AND queue_id = ? AND ${FREE} ORDER BY added_at, id LIMIT 1${lock})
    RETURNING ${ITEM_COLUMNS}`, [req.reviewer, until, ...key, at, ...key, at]);
}

/**
 * Marks an item done or skipped by a reviewer: one who holds it, or any reviewer when it is free, or the one who
 * finished it before (changing their answer). Never an item another reviewer holds or finished.
 * @returns the item as it was before, or undefined when it does not exist or the reviewer may not finish it.
 */
export function* finishItem(_d: Dialect, queue: Queue, itemId: string, how: Finish, now: Date): Steps<QueueItem | undefined> {
  const at = now.toISOString();
  const key = [queue.project_id, queue.id, itemId];
  const before = yield* get<QueueItem>(`SELECT ${ITEM_COLUMNS} FROM queue_items WHERE project_id = ? AND queue_id = ? AND id = ?`, key);
  if (!before) return undefined;
  const changed = yield* run(`UPDATE queue_items SET status = ?, reviewer = ?, done_at = ?, claim_expires_at = NULL
    WHERE project_id = ? AND queue_id = ? AND id = ? AND (${FREE} OR reviewer = ?)`, [how.status, how.reviewer, at, ...key, at, how.reviewer]);
  return changed > 0 ? before : undefined;
}

/** Puts an item back as `before` was (its answers could not be stored after `finishItem`). */
export function* reopenItem(_d: Dialect, queue: Queue, before: QueueItem): Steps<void> {
  yield* run('UPDATE queue_items SET status = ?, reviewer = ?, done_at = ?, claim_expires_at = ? WHERE project_id = ? AND queue_id = ? AND id = ?',
    [before.status, before.reviewer, before.done_at, before.claim_expires_at, queue.project_id, queue.id, before.id]);
}
