// Unit tests of timestamp normalization (calls and feedback store normalized UTC timestamps).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTimestamp } from '../../../src/server/db/timestamps.js';

describe('normalizeTimestamp', () => {
  it.each([
    ['2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.000Z'],
    ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123Z'],
    ['2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it('answers a UTC millisecond string (its shortcut) exactly as parsing and formatting it would', () => {
    const utc = fc.date({ noInvalidDate: true, min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') }).map((d) => d.toISOString());
    const edits = fc.constantFrom('2024-02-30T00:00:00.000Z', '2023-02-29T12:00:00.000Z', '2024-02-29T24:00:00.000Z', '2024-05-01T10:00:00.000z');
    fc.assert(
      fc.property(fc.oneof(utc, edits), (s) => {
        const ms = Date.parse(s);
        if (Number.isNaN(ms)) expect(() => normalizeTimestamp(s)).toThrow(RangeError);
        else expect(normalizeTimestamp(s)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(normalizeTimestamp('2024-02-30T00:00:00.000Z')).toBe('2024-03-01T00:00:00.000Z');
  });

  it('throws a RangeError for a non-timestamp', () => {
    expect(() => normalizeTimestamp('soon')).toThrow(RangeError);
  });
});
