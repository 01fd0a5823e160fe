// @weft-test: isolated runtime (the first call before any init(), the process's state at its start)
// Call ids: valid UUIDv7 (version and variant bits, timestamp), unique and strictly increasing, also past 65,536 ids in one ms and when the clock steps back.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/internal/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 48-bit Unix ms timestamp of a UUIDv7. */
function timestampOf(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

describe('newId()', () => {
  it('makes 200,000 valid UUIDv7s, all different, each greater than the one before', () => {
    const seen = new Set<string>();
    let previous = '';
    let sameMs = 0;
    for (let i = 0; i < 200_000; i++) {
      const id = newId();
      if (!UUID_V7.test(id)) throw new Error(`not a UUIDv7: ${id}`);
      if (!(id > previous)) throw new Error(`not increasing: ${previous} then ${id}`);
      if (previous !== '' && timestampOf(id) === timestampOf(previous)) sameMs++;
      previous = id;
      seen.add(id);
    }
    expect(seen.size).toBe(200_000);
    expect(sameMs).toBeGreaterThan(10_000); // many ids share a millisecond, so the in-ms counter was exercised
  });

  it('stamps the current Unix time in ms', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after);
  });

  it('varies the random bits between ids of the same millisecond', () => {
    const tails = new Set<string>();
    for (let i = 0; i < 1000; i++) tails.add(newId().slice(-8));
    expect(tails.size).toBeGreaterThan(990);
  });

  it('keeps counting within one millisecond past 65,536 ids (the counter carries into its high part)', () => {
    const t = Date.UTC(2030, 0, 1);
    let previous = newId(t);
    for (let i = 0; i < 70_000; i++) {
      const id = newId(t);
      if (!(id > previous) || timestampOf(id) !== t || !UUID_V7.test(id)) throw new Error(`after ${previous}: ${id}`);
      previous = id;
    }
  });

  it('stays increasing when the clock steps back, and follows the clock again once it passes the last id', () => {
    const t = Date.UTC(2030, 0, 2);
    const a = newId(t);
    const b = newId(t - 5_000);
    const c = newId(t - 1);
    expect(b > a && c > b).toBe(true);
    expect(timestampOf(b)).toBe(t);
    expect(timestampOf(c)).toBe(t);
    const d = newId(t + 7);
    expect(d > c).toBe(true);
    expect(timestampOf(d)).toBe(t + 7);
  });
});
