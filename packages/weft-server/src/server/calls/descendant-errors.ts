/**
 * `descendant_error` derived from stored descendants, for calls whose end came without `status_counts` (the Weave SDKs
 * send none): the records' fix-up (the lookup is `descendantFailed` of call-store.ts; filters and sorts derive
 * it in SQL, `descendantFailed` of fields.ts).
 * @module
 */
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../db/store-api.js';

/**
 * Marks `descendant_error` the records of a page that read `success` only because their end sent no
 * `status_counts`, when a stored descendant failed. One query per page, and none when every record has
 * `status_counts` (weft's SDK always sends them).
 *
 * @param projectId - the queried project.
 * @param page - records as built by `rowToRecord` (changed in place).
 * @param failed - which of the given ids have a failed descendant (a Promise of them on PostgreSQL).
 * @returns nothing, or a Promise when `failed` answered one.
 */
export function markDescendantErrors(
  projectId: string,
  page: readonly StoredCallRecord[],
  failed: (projectId: string, ids: readonly string[]) => MaybePromise<Set<string>>,
): MaybePromise<void> {
  const candidates = page.filter((r) => r.summary.status === 'success' && r.summary['status_counts'] === undefined);
  if (candidates.length === 0) return;
  return andThen(failed(projectId, candidates.map((r) => r.id)), (hit) => {
    for (const r of candidates) if (hit.has(r.id)) r.summary.status = 'descendant_error';
  });
}
