// The Datasets page's version difference (ui/datasets/dataset-diff.ts): rows matched by their source call, else by
// content (key order aside); added, removed, changed and unchanged rows counted once each.
import { describe, expect, it } from 'vitest';
import { diffRows } from '../../src/ui/datasets/dataset-diff.js';

const row = (call: string, expected: unknown) => ({ input: { q: call }, expected, source_call: `svc:///a/b/call/${call}` });

describe('diffRows', () => {
  it('matches rows of calls by source call: a new expected output is a change, not a removal and an addition', () => {
    const d = diffRows([row('c1', 'Paris'), row('c2', 'Rome'), row('c3', 'x')], [row('c2', 'Rome'), row('c1', 'Lyon'), row('c4', 'Lima')]);
    expect(d).toEqual({ added: [row('c4', 'Lima')], removed: [row('c3', 'x')], changed: [{ before: row('c1', 'Paris'), after: row('c1', 'Lyon') }], same: 1 });
  });

  it('matches rows without a source call by content, key order aside, each occurrence once', () => {
    const d = diffRows([{ q: 1, a: 2 }, { q: 1, a: 2 }, { q: 3 }], [{ a: 2, q: 1 }, { q: 4 }]);
    expect(d).toEqual({ added: [{ q: 4 }], removed: [{ q: 1, a: 2 }, { q: 3 }], changed: [], same: 1 });
  });
});
