/**
 * Retention's loop, shared by the server's job (`weft serve --retention-days`) and the route `weft calls delete` calls:
 * batch after batch of `CallStore.deleteCallsBefore`, each taking its turn with the writes (calls/call-turns.ts).
 * @module
 */
import type { CallStore } from '../call-store.js';
import { callTurns } from '../call-turns.js';

/** What {@link deleteBefore} deletes. */
export interface DeleteBeforeOptions {
  /** One project; all projects holding calls when absent. */
  projectId?: string;
  /** The cutoff, a normalized UTC timestamp (`normalizeTimestamp`). */
  cutoff: string;
  /** Calls per transaction, at least 1. */
  batchSize: number;
  /** Asked before each batch: true stops the run there (the server is closing). @defaultValue never */
  stopped?: () => boolean;
}

/** What a run deleted. */
export interface DeletedTotals {
  calls: number;
  feedback: number;
  /** Files (media) no remaining call refers to. */
  files: number;
  /** Transactions that deleted something. */
  batches: number;
}

/**
 * Deletes the traces started before the cutoff (the rule: `deleteBatchBefore`), project by project, one batch per
 * turn of the store's queue: on SQLite each batch is one short transaction between the writes queued before and after
 * it, with I/O polled in between; on PostgreSQL each is one short transaction holding only its rows' locks.
 * @throws what a batch throws (the batches before it stay deleted).
 */
export async function deleteBefore(calls: CallStore, options: DeleteBeforeOptions): Promise<DeletedTotals> {
  const { cutoff, batchSize, stopped = () => false } = options;
  const turns = callTurns(calls);
  const projects = options.projectId !== undefined ? [options.projectId] : await calls.projectIds();
  const totals: DeletedTotals = { calls: 0, feedback: 0, files: 0, batches: 0 };
  for (const projectId of projects) {
    for (let more = true; more && !stopped();) {
      const batch = await turns.run(() => calls.deleteCallsBefore(projectId, cutoff, batchSize));
      more = batch.more;
      if (!more) break;
      totals.calls += batch.calls;
      totals.feedback += batch.feedback;
      totals.files += batch.files;
      totals.batches += 1;
    }
  }
  return totals;
}
