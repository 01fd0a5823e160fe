/**
 * The difference between two versions of a dataset: rows added, removed and changed, a row matched across versions by
 * its source call (`source_call`, rows made from calls) or else by its content.
 * @module
 */
import { rowKey } from 'weft-trace/viewer';

/** What changed from version `a` to version `b`. */
export interface DatasetDiff {
  added: unknown[];
  removed: unknown[];
  /** Rows of the same source call whose content differs: before (in `a`) and after (in `b`). */
  changed: Array<{ before: unknown; after: unknown }>;
  /** Rows the same in both. */
  same: number;
}

/** The key a row is matched by: its `source_call` when it has one, else its content. */
function keyOf(row: unknown): string {
  const source = (row as { source_call?: unknown } | null)?.source_call;
  return typeof source === 'string' ? `call ${source}` : `row ${rowKey(row)}`;
}

/** The rows of `b` against those of `a` (order aside; a key repeated in a version is matched once per occurrence). */
export function diffRows(a: readonly unknown[], b: readonly unknown[]): DatasetDiff {
  const before = new Map<string, unknown[]>();
  for (const row of a) before.set(keyOf(row), [...(before.get(keyOf(row)) ?? []), row]);
  const diff: DatasetDiff = { added: [], removed: [], changed: [], same: 0 };
  for (const row of b) {
    const pending = before.get(keyOf(row));
    const old = pending?.shift();
    if (old === undefined) diff.added.push(row);
    else if (rowKey(old) === rowKey(row)) diff.same++;
    else diff.changed.push({ before: old, after: row });
  }
  for (const rest of before.values()) diff.removed.push(...rest);
  return diff;
}
