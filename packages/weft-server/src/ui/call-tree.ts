/**
 * A trace's calls as a tree: children in start order, flattened to the rows in view (collapsed subtrees skipped).
 * @module
 */
import type { CallRecord } from './api';

export interface TreeRow {
  call: CallRecord;
  depth: number;
  childCount: number;
}

export interface CallTree {
  roots: CallRecord[];
  children: Map<string, CallRecord[]>;
  byId: Map<string, CallRecord>;
  /** Earliest start and latest end (or now, while running), in ms since the epoch. */
  t0: number;
  t1: number;
}

/** Builds the tree; a call whose parent is not in the trace becomes a root. Each start is parsed once (10,000 calls: one pass and a sort). */
export function buildTree(calls: readonly CallRecord[], now = Date.now()): CallTree {
  const byId = new Map<string, CallRecord>();
  const startOf = new Map<CallRecord, number>();
  for (const c of calls) {
    byId.set(c.id, c);
    startOf.set(c, Date.parse(c.started_at));
  }
  const children = new Map<string, CallRecord[]>();
  const roots: CallRecord[] = [];
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const c of calls) {
    t0 = Math.min(t0, startOf.get(c)!);
    t1 = Math.max(t1, c.ended_at ? Date.parse(c.ended_at) : now);
    if (c.parent_id && byId.has(c.parent_id)) {
      const list = children.get(c.parent_id);
      if (list) list.push(c);
      else children.set(c.parent_id, [c]);
    } else roots.push(c);
  }
  const byStart = (a: CallRecord, b: CallRecord): number => startOf.get(a)! - startOf.get(b)! || (a.id < b.id ? -1 : 1);
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);
  if (!Number.isFinite(t0)) t0 = t1 = now;
  return { roots, children, byId, t0, t1: Math.max(t1, t0 + 1) };
}

/** The rows in view, depth first, skipping the children of collapsed calls. */
export function visibleRows(tree: CallTree, collapsed: ReadonlySet<string>): TreeRow[] {
  const out: TreeRow[] = [];
  const stack: { call: CallRecord; depth: number }[] = [...tree.roots].reverse().map((call) => ({ call, depth: 0 }));
  while (stack.length > 0) {
    const { call, depth } = stack.pop()!;
    const kids = tree.children.get(call.id) ?? [];
    out.push({ call, depth, childCount: kids.length });
    if (!collapsed.has(call.id)) for (let i = kids.length - 1; i >= 0; i -= 1) stack.push({ call: kids[i]!, depth: depth + 1 });
  }
  return out;
}
