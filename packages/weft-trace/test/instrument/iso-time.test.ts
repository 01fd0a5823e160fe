// @weft-test: runtime
// isoTime(): the cached formatter gives exactly what Date#toISOString gives, for any ms and any order of calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/instrument/iso-time.js';

const MAX_TIME = 8.64e15;

describe('isoTime()', () => {
  it('equals new Date(ms).toISOString() for any valid time in ms', () => {
    fc.assert(fc.property(fc.integer({ min: -MAX_TIME, max: MAX_TIME }), (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }), { numRuns: 20_000 });
  });

  it('stays exact over runs of nearby times (the cached second is reused and replaced)', () => {
    const base = fc.integer({ min: Date.UTC(1960, 0, 1), max: Date.UTC(2100, 0, 1) });
    const steps = fc.array(fc.integer({ min: -2500, max: 2500 }), { minLength: 1, maxLength: 200 });
    fc.assert(fc.property(base, steps, (start, deltas) => {
      let ms = start;
      for (const d of deltas) {
        ms += d;
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }
    }));
  });

  it('handles the edges as toISOString does: fractions are truncated, -0 and the extremes format, the invalid throw', () => {
    for (const ms of [0, -0, -1, 999, 1000, 1.9, -1.5, 1e12 + 0.5, MAX_TIME, -MAX_TIME, 253402300799999, 253402300800000]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    for (const ms of [Number.NaN, Infinity, -Infinity, MAX_TIME + 1, -MAX_TIME - 1]) {
      expect(() => isoTime(ms)).toThrow(RangeError);
    }
  });
});
