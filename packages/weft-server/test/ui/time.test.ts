// The viewer's display helpers that need no browser: times read ISO-like, in a named zone (issue 24, item 11).
import { describe, expect, it } from 'vitest';
import { clock, localZone, time } from '../../src/ui/time.js';

describe('time()', () => {
  it('reads ISO-like with milliseconds on a 24-hour clock, the zone named', () => {
    expect(time('2026-11-25T20:16:00.925Z', 'Europe/Berlin')).toBe('2026-11-25 21:16:00.925 Europe/Berlin');
    expect(time('2026-07-01T23:59:59.001Z', 'America/New_York')).toBe('2026-07-01 19:59:59.001 America/New_York');
    expect(time('2026-01-01T00:00:00.000Z', 'Asia/Kathmandu')).toBe('2026-01-01 05:45:00.000 Asia/Kathmandu');
  });

  it('uses the local zone by default', () => {
    expect(time('2026-11-25T00:00:00.000Z')).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.000 ${localZone().replace('/', '\\/')}$`));
  });
});

describe('clock()', () => {
  it('reads as time() without the zone (a list names it once, in its header)', () => {
    expect(clock('2026-11-25T20:16:00.925Z', 'Europe/Berlin')).toBe('2026-11-25 21:16:00.925');
  });
});
