/**
 * The one `TurnQueue` of a call store: batch writes, stream pages and retention's delete batches take turns in it,
 * whichever part of the server runs them.
 * @module
 */
import type { CallStore } from './call-store.js';
import { TurnQueue } from './turn-queue.js';

const QUEUES = new WeakMap<CallStore, TurnQueue>();

/**
 * The turn queue of `calls`, made on first use: groups of writes queued back to back run as one unit of the store
 * (`CallStore.together`; on SQLite one transaction).
 */
export function callTurns(calls: CallStore): TurnQueue {
  let turns = QUEUES.get(calls);
  if (!turns) QUEUES.set(calls, (turns = new TurnQueue((writes) => calls.together(writes))));
  return turns;
}
