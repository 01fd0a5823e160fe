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
 * @param clean - calls of the same answer known to have no failed descendant: a record whose parent is one of them is
 *   one too (its subtree is inside its parent's) and is not looked up; each record found clean is added. A trace read
 *   in start order so walks each subtree once, not once per level (a 10,000-call trace: 73-107 ms of walks per read,
 *   issue 40). @defaultValue a new set
 * @returns nothing, or a Promise when `failed` answered one.
 */
export function markDescendantErrors(
  projectId: string,
  page: readonly StoredCallRecord[],
  failed: (projectId: string, ids: readonly string[]) => MaybePromise<Set<string>>,
  clean = new Set<string>(),
): MaybePromise<void> {
  const candidates: StoredCallRecord[] = [];
  for (const r of page) {
    if (r.parent_id != null && clean.has(r.parent_id)) clean.add(r.id);
    else if (r.summary.status === 'success' && r.summary['status_counts'] === undefined) candidates.push(r);
  }
  if (candidates.length === 0) return;
  return andThen(failed(projectId, candidates.map((r) => r.id)), (hit) => {
    for (const r of candidates) {
      if (hit.has(r.id)) r.summary.status = 'descendant_error';
      else clean.add(r.id);
    }
  });
}
