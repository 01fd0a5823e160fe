// The trace page's tree (src/ui/call-tree.ts), without a browser: calls added as they stream in, in start order or
// not, give the tree built from all of them at once; a child read before its parent moves under it when it comes.
import { describe, expect, it } from 'vitest';
import { buildTree, type TreeCall, TreeBuilder, visibleRows } from '../../src/ui/call-tree.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const call = (id: string, parent: string | null, startS: number, endS: number | null = startS + 1): TreeCall =>
  ({ id, parent_id: parent, started_at: new Date(T0 + startS * 1000).toISOString(), ended_at: endS === null ? null : new Date(T0 + endS * 1000).toISOString() });
/** The rows as `id@depth`. */
const shape = (calls: TreeCall[], order: number[]): string[] => {
  const b = new TreeBuilder();
  for (const i of order) b.add(calls[i]!);
  return visibleRows(b.tree(T0), new Set()).map((r) => `${r.call.id}@${r.depth}`);
};

describe('TreeBuilder', () => {
  // root → a (→ a1, a2), b (→ b1); started in this order
  const calls = [call('root', null, 0, 10), call('a', 'root', 1), call('a1', 'a', 2), call('a2', 'a', 3), call('b', 'root', 4), call('b1', 'b', 5)];
  const expected = ['root@0', 'a@1', 'a1@2', 'a2@2', 'b@1', 'b1@2'];

  it('grows in start order: each view is the tree of the calls added so far', () => {
    const b = new TreeBuilder();
    const views: string[][] = [];
    for (const c of calls) {
      b.add(c);
      views.push(visibleRows(b.tree(T0), new Set()).map((r) => r.call.id));
    }
    expect(views[2]).toEqual(['root', 'a', 'a1']);
    expect(views[5]).toEqual(expected.map((s) => s.split('@')[0]));
    expect(b.size).toBe(6);
  });

  it('gives the same tree whatever the order the calls come in: children sorted by start, a child read first adopted by its parent', () => {
    expect(shape(calls, [0, 1, 2, 3, 4, 5])).toEqual(expected);
    expect(shape(calls, [5, 4, 3, 2, 1, 0])).toEqual(expected);
    expect(shape(calls, [2, 5, 0, 3, 1, 4])).toEqual(expected);
    // before its parent arrives, a child is a root
    const b = new TreeBuilder();
    b.add(calls[2]!);
    b.add(calls[0]!);
    expect(b.tree(T0).roots.map((c) => c.id)).toEqual(['root', 'a1']);
    b.add(calls[1]!);
    expect(visibleRows(b.tree(T0), new Set()).map((r) => `${r.call.id}@${r.depth}`)).toEqual(['root@0', 'a@1', 'a1@2']);
  });

  it('spans from the first start to the last end, or to now while a call runs; buildTree agrees', () => {
    const ended = buildTree(calls, T0 + 99_000);
    expect([ended.t0, ended.t1]).toEqual([T0, T0 + 10_000]);
    const running = buildTree([...calls, call('late', 'b', 6, null)], T0 + 99_000);
    expect(running.t1).toBe(T0 + 99_000);
    const b = new TreeBuilder();
    for (const c of calls) b.add(c);
    expect(b.hasRunning).toBe(false);
    b.add(call('late', 'b', 6, null));
    expect(b.hasRunning).toBe(true);
    const self = buildTree([call('x', 'x', 0)], T0);
    expect(self.roots.map((c) => c.id)).toEqual(['x']); // a call naming itself its parent is a root, not a loop
  });
});
