// @weft-test: postgres
// The overview's latency histogram (src/server/stats/latency-histogram.ts): dense bins that grow to any bin, merged and read back
// from their stored text exactly as a plain count per bin, and percentiles as percentile_cont over the bins' values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addHistogramText, binValue, histogramPercentiles, histogramText, LATENCY_BOUNDS, LatencyHistogram } from '../../../src/server/stats/latency-histogram.js';

const MAX_BIN = LATENCY_BOUNDS.length;
const binsArb = fc.array(fc.tuple(fc.integer({ min: -MAX_BIN, max: MAX_BIN }), fc.integer({ min: 1, max: 1_000_000 })), { maxLength: 60 });

const histogramOf = (bins: readonly [number, number][]): LatencyHistogram => {
  const h = new LatencyHistogram();
  for (const [k, n] of bins) h.add(k, n);
  return h;
};
/** The plain count per bin, ascending, of some (bin, count) lists. */
const countsOf = (...lists: (readonly [number, number][])[]): [number, number][] => {
  const m = new Map<number, number>();
  for (const bins of lists) for (const [k, n] of bins) m.set(k, (m.get(k) ?? 0) + n);
  return [...m.entries()].sort(([a], [b]) => a - b);
};
const entries = (h: LatencyHistogram): [number, number][] => {
  const out: [number, number][] = [];
  h.forEach((k, n) => out.push([k, n]));
  return out;
};

describe('latency histogram', () => {
  it('adds and merges bins anywhere in the range, as a plain count per bin', () => {
    fc.assert(fc.property(binsArb, binsArb, (a, b) => {
      const h = histogramOf(a);
      h.merge(histogramOf(b));
      expect(entries(h)).toEqual(countsOf(a, b));
    }));
  });

  it('reads its stored text back into several histograms at once, and JSON it does not expect by JSON.parse', () => {
    fc.assert(fc.property(binsArb, binsArb, (a, b) => {
      const text = histogramText(histogramOf(a));
      expect(JSON.parse(text)).toEqual(countsOf(a).flat());
      const x = histogramOf(b);
      const y = new LatencyHistogram();
      addHistogramText([x, y], text);
      expect(entries(x)).toEqual(countsOf(a, b));
      expect(entries(y)).toEqual(countsOf(a));
    }));
    const h = new LatencyHistogram();
    addHistogramText(h, '[ 3, 2.0e0, -4, 1 ]');
    expect(entries(h)).toEqual([[-4, 1], [3, 2]]);
  });

  it('answers percentiles as percentile_cont over the bin values', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: -80, max: 80 }), fc.integer({ min: 1, max: 5 })), { minLength: 1, maxLength: 20 }), (bins) => {
      const values = countsOf(bins).flatMap(([k, n]) => Array<number>(n).fill(binValue(k)));
      const cont = (p: number): number => {
        const at = ((values.length - 1) * p) / 100;
        const lo = Math.floor(at);
        return at === lo ? values[lo]! : values[lo]! + (at - lo) * (values[lo + 1]! - values[lo]!);
      };
      expect(histogramPercentiles(histogramOf(bins), [0, 50, 95, 100])).toEqual([cont(0), cont(50), cont(95), cont(100)]);
    }));
    expect(histogramPercentiles(new LatencyHistogram(), [50])).toEqual([null]);
  });
});
