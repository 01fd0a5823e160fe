/**
 * `descendant_error` derived from stored descendants, for calls whose end came without `status_counts` (the Weave SDKs
 * send none): the records' fix-up (the lookup is `descendantFailed` of call-store.ts; filters and sorts derive
 * it in SQL, `descendantFailed` of fields.ts).
 * @module
 */
import type { StoredCallRecord } from './records.js';
import { andThen, type MaybePromise } from '../../db/store-api.js';

/**
 * Marks `descendant_error` the records of a page that read `success` only because their end sent no
 * `status_counts`, when a stored descendant failed. At most two queries per page (the calls under another of the
 * page wait for its walk), and none when every record has `status_counts` (weft's SDK always sends them).
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
  const candidates = new Map<string, StoredCallRecord>();
  for (const r of page) {
    if (r.parent_id != null && clean.has(r.parent_id)) clean.add(r.id);
    else if (r.summary.status === 'success' && r.summary['status_counts'] === undefined) candidates.set(r.id, r);
  }
  if (candidates.size === 0) return;
  // the candidates under another candidate of the page wait for its walk: found clean, so are they (a step and its
  // tools read in one page: one walk, the step's); the others are then looked up together (at most two lookups a page)
  const mark = (batch: readonly StoredCallRecord[], hit: Set<string>): void => {
    for (const r of batch) {
      if (hit.has(r.id)) r.summary.status = 'descendant_error';
      else clean.add(r.id);
    }
  };
  const all = [...candidates.values()];
  const under = (r: StoredCallRecord): boolean => r.parent_id != null && r.parent_id !== r.id && candidates.has(r.parent_id);
  const top = all.filter((r) => !under(r));
  const waiting = all.filter(under);
  if (top.length === 0 || waiting.length === 0) return andThen(failed(projectId, all.map((r) => r.id)), (hit) => mark(all, hit));
  return andThen(failed(projectId, top.map((r) => r.id)), (hit) => {
    mark(top, hit);
    // in page order, so a parent is settled before its children (a trace reads in start order); `cleanBy` walks up the
    // page otherwise
    const settled = new Map<string, boolean>(top.map((r) => [r.id, clean.has(r.id)]));
    const cleanBy = (r: StoredCallRecord, seen = new Set<string>()): boolean => {
      const known = settled.get(r.id);
      if (known !== undefined) return known;
      const parent = r.parent_id != null ? candidates.get(r.parent_id) : undefined;
      const ok = parent !== undefined && !seen.has(r.id) && cleanBy(parent, seen.add(r.id));
      settled.set(r.id, ok);
      return ok;
    };
    const rest = waiting.filter((r) => {
      if (!cleanBy(r)) return true;
      clean.add(r.id);
      return false;
    });
    if (rest.length === 0) return undefined;
    return andThen(failed(projectId, rest.map((r) => r.id)), (restHit) => mark(rest, restHit));
  });
}
