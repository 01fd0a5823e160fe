/**
 * One batch of retention (`weft serve --retention-days`, `weft calls delete --before`): the oldest whole traces of a
 * project started before a cutoff, deleted with their feedback, refs and pending renames in one transaction.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, type Steps } from '../../db/sql-steps.js';
import { deleteFeedback } from '../../feedback/feedback-rollup-marks.js';
import { dropCallRows } from './call-edit-writes.js';

/** What one batch deleted. */
export interface DeletedBatch {
  /** Call rows deleted. */
  calls: number;
  /** Feedback rows deleted (the feedback of those calls). */
  feedback: number;
  /** Files deleted: the media those calls referred to that no remaining call refers to. */
  files: number;
  /** True while calls older than the cutoff may be left (run another batch); false once none is. */
  more: boolean;
}

/**
 * The oldest roots started before the cutoff, each with its trace's size. Reads `calls_parent`
 * `(project_id, parent_id, started_at, id)` with `parent_id IS NULL` (in start order, no sort) and `calls_trace`.
 */
const OLD_ROOTS = `SELECT r.trace_id AS trace_id,
    (SELECT CAST(count(*) AS INTEGER) FROM calls c WHERE c.project_id = r.project_id AND c.trace_id = r.trace_id) AS n
  FROM calls r WHERE r.project_id = ? AND r.parent_id IS NULL AND r.started_at < ? AND r.trace_id IS NOT NULL
  ORDER BY r.started_at LIMIT ?`;

/**
 * Calls started before the cutoff whose trace has no stored root (its start never arrived, or a span whose parent is
 * in another service and was never sent): nothing else would ever delete them. After the roots pass only these are
 * older than the cutoff, so the scan of `calls_started_at` reads little more than what it deletes.
 */
const OLD_ORPHANS = `SELECT c.id AS id FROM calls c WHERE c.project_id = ? AND c.started_at < ?
  AND NOT EXISTS (SELECT 1 FROM calls r WHERE r.project_id = c.project_id AND r.trace_id = c.trace_id AND r.parent_id IS NULL)
  ORDER BY c.started_at LIMIT ?`;

/** The first traces of `roots` (at least one) whose sizes add up to at most `batchSize` calls. */
function tracesUpTo(roots: readonly { trace_id: string; n: number }[], batchSize: number): string[] {
  const picked: string[] = [];
  let calls = 0;
  for (const root of roots) {
    if (picked.length > 0 && calls + Number(root.n) > batchSize) break;
    picked.push(root.trace_id);
    calls += Number(root.n);
  }
  return picked;
}

/**
 * Deletes one batch of a project's calls older than `cutoff`; run in a transaction (all of the batch or none).
 *
 * The rule: a trace is deleted whole, when its root started before the cutoff (a child started after it goes with its
 * root, so the viewer never shows a trace cut in two); calls older than the cutoff whose trace has no stored root go
 * by their own `started_at`. A batch takes the oldest such traces up to `batchSize` calls (a trace larger than that
 * goes alone, whole), else up to `batchSize` rootless calls. Rows holding only an end (their start never arrived; no
 * `started_at`) are kept. With the calls go their feedback, stored refs, pending renames, and the files (media) they
 * referred to that no remaining call refers to; objects, other files and tables are not deleted (see docs/scale.md,
 * "Retention", and docs/server.md, "Media files").
 *
 * The overview's hour rollups of the deleted roots are marked stale in the same transaction (`dropCallRows`), and
 * recomputed by the rollup job (rollup-refresh.ts).
 *
 * @param cutoff - a normalized UTC timestamp (`normalizeTimestamp`): stored `started_at` texts compare in time order.
 * @param batchSize - calls per transaction, at least 1.
 */
export function* deleteBatchBefore(d: Dialect, projectId: string, cutoff: string, batchSize: number): Steps<DeletedBatch> {
  const roots = yield* all<{ trace_id: string; n: number }>(OLD_ROOTS, [projectId, cutoff, batchSize]);
  const traces = tracesUpTo(roots, batchSize);
  const doomed = traces.length > 0
    ? (yield* all<{ id: string }>(`SELECT id FROM calls WHERE project_id = ? AND ${d.inList('trace_id')}`, [projectId, d.list(traces)])).map((r) => r.id)
    : (yield* all<{ id: string }>(OLD_ORPHANS, [projectId, cutoff, batchSize])).map((r) => r.id);
  if (doomed.length === 0) return { calls: 0, feedback: 0, files: 0, more: false };
  // the rows first: dropCallRows locks the calls' files before the transaction writes anything (file-store.ts)
  const { calls, files } = yield* dropCallRows(d, projectId, doomed);
  const feedback = yield* deleteFeedback(d, projectId, 'call_id', doomed);
  return { calls, feedback, files, more: true };
}
