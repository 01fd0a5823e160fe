// Property tests of selection-based percentiles: the same numbers as sorting first (R type 7).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickselect } from '../../../src/server/stats/quickselect.js';
import { percentileOf } from '../../../src/server/stats/stats-aggregate.js';

const values = fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 300 });

describe('quickselect', () => {
  it('puts the k-th smallest at k, nothing larger before it, nothing smaller after it', () => {
    fc.assert(
      fc.property(values, fc.nat(), (xs, n) => {
        const a = Float64Array.from(xs);
        const k = n % a.length;
        const want = Float64Array.from(xs).sort()[k];
        expect(quickselect(a, k)).toBe(want === 0 ? a[k] : want); // -0 and 0 tie
        a.subarray(0, k).forEach((v) => expect(v).toBeLessThanOrEqual(a[k]!));
        a.subarray(k + 1).forEach((v) => expect(v).toBeGreaterThanOrEqual(a[k]!));
        // the same multiset (`+ 0` makes -0 and 0 one value: a stable sort keeps their input order)
        expect([...a].map((v) => v + 0).sort((x, y) => x - y)).toEqual([...xs].map((v) => v + 0).sort((x, y) => x - y));
      }),
    );
  });
});

describe('percentileOf', () => {
  it('equals interpolation between closest ranks of the sorted values, whatever was selected before', () => {
    fc.assert(
      fc.property(values, fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 4 }), (xs, ps) => {
        const sorted = Float64Array.from(xs).sort();
        const a = Float64Array.from(xs);
        for (const p of ps) {
          const h = ((sorted.length - 1) * p) / 100;
          const lo = Math.floor(h);
          const want = lo + 1 < sorted.length ? sorted[lo]! + (h - lo) * (sorted[lo + 1]! - sorted[lo]!) : sorted[lo]!;
          expect(percentileOf(a, p) + 0).toBe(want + 0);
        }
      }),
    );
  });
});
