/**
 * A trace's calls as a tree: children in start order, flattened to the rows in view (collapsed subtrees skipped). The
 * tree grows as the calls stream in ({@link TreeBuilder}), so drawing it while a 10,000-call trace arrives costs the
 * rows flattened, not the tree rebuilt.
 * @module
 */

/** The fields of a call record the tree reads (the page's records are `C`s of api.ts). */
export interface TreeCall {
  id: string;
  parent_id?: string | null;
  /** ISO 8601 UTC. */
  started_at: string;
  /** ISO 8601 UTC; null while running. */
  ended_at?: string | null;
}

export interface TreeRow<C extends TreeCall = TreeCall> {
  call: C;
  depth: number;
  childCount: number;
}

export interface CallTree<C extends TreeCall = TreeCall> {
  roots: C[];
  children: Map<string, C[]>;
  byId: Map<string, C>;
  /** Earliest start and latest end (or now, while running), in ms since the epoch. */
  t0: number;
  t1: number;
}

/**
 * The tree of calls (`C`: the page's call records) added one at a time, in any order; cheapest in start order (as the trace page reads them: each
 * call then appends to its parent's children). A call whose parent has not been added is a root until its parent is.
 */
export class TreeBuilder<C extends TreeCall> {
  private readonly byId = new Map<string, C>();
  private readonly startOf = new Map<C, number>();
  private readonly children = new Map<string, C[]>();
  private roots: C[] = [];
  /** Roots for now, by the parent id they name (moved under it when it is added). */
  private readonly orphans = new Map<string, C[]>();
  /** Children lists (and the roots, as `null`) a call was added to out of start order: sorted before the next view. */
  private readonly unsorted = new Set<C[] | null>();
  private t0 = Infinity;
  private lastEnd = -Infinity;
  private running = 0;

  /** Calls added. */
  get size(): number {
    return this.byId.size;
  }

  /** Whether a call added has not ended. */
  get hasRunning(): boolean {
    return this.running > 0;
  }

  private readonly byStart = (a: C, b: C): number => this.startOf.get(a)! - this.startOf.get(b)! || (a.id < b.id ? -1 : 1);

  /** Appends `c` to `list`, noting the list unsorted when `c` starts before its last call. */
  private append(list: C[], c: C, key: C[] | null): void {
    const last = list[list.length - 1];
    if (last !== undefined && this.byStart(last, c) > 0) this.unsorted.add(key);
    list.push(c);
  }

  /** Adds a call (once per id: a second record of the same id is ignored). Parses its start and end once. */
  add(c: C): void {
    if (this.byId.has(c.id)) return;
    this.byId.set(c.id, c);
    const start = Date.parse(c.started_at);
    this.startOf.set(c, start);
    this.t0 = Math.min(this.t0, start);
    if (c.ended_at) this.lastEnd = Math.max(this.lastEnd, Date.parse(c.ended_at));
    else this.running += 1;
    const waiting = this.orphans.get(c.id);
    if (waiting) {
      this.orphans.delete(c.id);
      const moved = new Set(waiting);
      this.roots = this.roots.filter((r) => !moved.has(r));
      this.children.set(c.id, waiting);
      this.unsorted.add(waiting);
    }
    const parent = c.parent_id;
    if (parent && parent !== c.id && this.byId.has(parent)) {
      const list = this.children.get(parent);
      if (list) this.append(list, c, list);
      else this.children.set(parent, [c]);
      return;
    }
    if (parent && parent !== c.id) {
      const list = this.orphans.get(parent);
      if (list) list.push(c);
      else this.orphans.set(parent, [c]);
    }
    this.append(this.roots, c, null);
  }

  /**
   * The tree as it stands (its lists are the builder's own: read them, do not change them).
   * @param now - ms since the epoch: where a running call ends.
   */
  tree(now = Date.now()): CallTree<C> {
    for (const list of this.unsorted) (list ?? this.roots).sort(this.byStart);
    this.unsorted.clear();
    const t1 = this.running > 0 ? Math.max(this.lastEnd, now) : this.lastEnd;
    const t0 = Number.isFinite(this.t0) ? this.t0 : now;
    const end = Number.isFinite(t1) ? t1 : now;
    return { roots: this.roots, children: this.children, byId: this.byId, t0, t1: Math.max(end, t0 + 1) };
  }
}

/** Builds the tree of `calls` in one go; a call whose parent is not in the trace becomes a root. */
export function buildTree<C extends TreeCall>(calls: readonly C[], now = Date.now()): CallTree<C> {
  const builder = new TreeBuilder<C>();
  for (const c of calls) builder.add(c);
  return builder.tree(now);
}

/** The rows in view, depth first, skipping the children of collapsed calls. */
export function visibleRows<C extends TreeCall>(tree: CallTree<C>, collapsed: ReadonlySet<string>): TreeRow<C>[] {
  const out: TreeRow<C>[] = [];
  const stack: { call: C; depth: number }[] = [...tree.roots].reverse().map((call) => ({ call, depth: 0 }));
  while (stack.length > 0) {
    const { call, depth } = stack.pop()!;
    const kids = tree.children.get(call.id) ?? [];
    out.push({ call, depth, childCount: kids.length });
    if (!collapsed.has(call.id)) for (let i = kids.length - 1; i >= 0; i -= 1) stack.push({ call: kids[i]!, depth: depth + 1 });
  }
  return out;
}

/** Indentation of a row's first levels, px each; deeper levels step by {@link DEEP_STEP_PX}. */
const STEP_PX = 12;
const DEEP_STEP_PX = 5;
/** Levels indented by the full step (a LangGraph or Agents tree goes 6-10 deep: past these, the name's room comes first). */
const FULL_LEVELS = 4;

/** The left indentation of a tree row at `depth`, px: full steps for the first levels, narrow ones below them. */
export function indentPx(depth: number): number {
  return 4 + STEP_PX * Math.min(depth, FULL_LEVELS) + DEEP_STEP_PX * Math.max(depth - FULL_LEVELS, 0);
}
