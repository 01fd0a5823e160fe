// @weft-test: postgres
// descendant_error marked page by page through one answer: the subtree of a call found clean is not walked again.
import { describe, expect, it } from 'vitest';
import { markDescendantErrors } from '../../../src/server/calls/query/descendant-errors.js';
import type { StoredCallRecord } from '../../../src/server/calls/query/records.js';

/** A record as `rowToRecord` builds it, ended without `status_counts` (as the Weave SDKs send it), or failed. */
const rec = (id: string, parent: string | null, failed = false): StoredCallRecord =>
  ({ id, parent_id: parent, summary: { status: failed ? 'error' : 'success', latency_ms: 1 } }) as unknown as StoredCallRecord;

/** A store's lookup over a parent map: which of `ids` have a failed descendant; `asked` records each lookup. */
function lookup(parents: Record<string, string | null>, failed: Set<string>, asked: string[][]) {
  return (_project: string, ids: readonly string[]): Set<string> => {
    asked.push([...ids]);
    const below = (id: string): boolean => Object.entries(parents).some(([c, p]) => p === id && (failed.has(c) || below(c)));
    return new Set(ids.filter(below));
  };
}

describe('markDescendantErrors across the pages of one answer', () => {
  // root → s1 → (t1, t2); root → s2 → (t3 failed, t4): a trace in start order, read two calls a page
  const parents: Record<string, string | null> = { root: null, s1: 'root', t1: 's1', t2: 's1', s2: 'root', t3: 's2', t4: 's2' };
  const failed = new Set(['t3']);
  const pages = [['root', 's1'], ['t1', 't2'], ['s2', 't3'], ['t4']];

  it('walks a clean subtree once: the calls under a call found clean are not looked up, and the marks stay right', () => {
    const asked: string[][] = [];
    const clean = new Set<string>();
    const status: Record<string, string> = {};
    for (const ids of pages) {
      const page = ids.map((id) => rec(id, parents[id]!, failed.has(id)));
      void markDescendantErrors('p', page, lookup(parents, failed, asked), clean);
      for (const r of page) status[r.id] = r.summary.status;
    }
    expect(status).toEqual({ root: 'descendant_error', s1: 'success', t1: 'success', t2: 'success', s2: 'descendant_error', t3: 'error', t4: 'success' });
    // s1 waits for root's walk (root is not clean: s1 is looked up then); t1 and t2 are under s1, found clean on the
    // first page; t3 waits for s2's walk; t4 is under s2, which is not clean: looked up
    expect(asked).toEqual([['root'], ['s1'], ['s2'], ['t4']]);
  });

  it('looks every candidate up without the set of the answer (each page on its own)', () => {
    const asked: string[][] = [];
    for (const ids of pages) void markDescendantErrors('p', ids.map((id) => rec(id, parents[id]!, failed.has(id))), lookup(parents, failed, asked));
    expect(asked).toEqual([['root'], ['s1'], ['t1', 't2'], ['s2'], ['t4']]);
  });

  it('walks once for a page holding a clean call and the calls under it, at any depth and in any order', () => {
    // s1 → (t1 → u1, t2), all in one page, u1 read first: one walk, s1's
    const tree: Record<string, string | null> = { s1: 'root', t1: 's1', u1: 't1', t2: 's1' };
    const asked: string[][] = [];
    const page = ['u1', 's1', 't2', 't1'].map((id) => rec(id, tree[id]!));
    void markDescendantErrors('p', page, lookup(tree, new Set(), asked));
    expect(asked).toEqual([['s1']]);
    expect(page.map((r) => r.summary.status)).toEqual(['success', 'success', 'success', 'success']);
    // with a failure below: the page's calls under the failed walk are looked up together, once
    const failing = new Set(['u1']);
    const asked2: string[][] = [];
    const page2 = ['s1', 't1', 'u1', 't2'].map((id) => rec(id, tree[id]!, failing.has(id)));
    void markDescendantErrors('p', page2, lookup(tree, failing, asked2));
    expect(asked2).toEqual([['s1'], ['t1', 't2']]);
    expect(page2.map((r) => r.summary.status)).toEqual(['descendant_error', 'descendant_error', 'error', 'success']);
  });
});
