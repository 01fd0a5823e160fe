// @weft-test: postgres
// Tests of /feedback/stats bucket alignment in IANA time zones: DST change days in New York, and +05:30 Kolkata.
import { describe, expect, it } from 'vitest';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useFeedbackServer } from 'weft-test-kit/feedback-server.js';

const fb = useFeedbackServer();
const NY = 'America/New_York';
const DAY_S = 86_400;

/** `[timestamp, count]` of every bucket. */
async function bucketsOf(project: string, body: { start: string; end: string; timezone: string; granularity: number }): Promise<[string, number][]> {
  const res = await fb.stats(project, body);
  expect(res.timezone).toBe(body.timezone);
  expect(res.granularity).toBe(body.granularity);
  return (res.buckets ?? []).map((b) => [b.timestamp, b.count]);
}

describe('America/New_York, spring forward (2026-03-08, 02:00 EST -> 03:00 EDT)', () => {
  it('day buckets start at local midnight; the change day lasts 23 h', async () => {
    const project = uniqueProject('ny-spring-day');
    await fb.createAt(project, [
      { at: '2026-03-08T04:59:59.999Z' }, // 03-07 23:59:59.999 EST
      { at: '2026-03-08T05:00:00.000Z' }, // 03-08 00:00 EST
      { at: '2026-03-09T03:59:59.999Z' }, // 03-08 23:59:59.999 EDT, 23 h after the local midnight
      { at: '2026-03-09T04:00:00.000Z' }, // 03-09 00:00 EDT
    ]);
    expect(await bucketsOf(project, { start: '2026-03-07T05:00:00Z', end: '2026-03-10T04:00:00Z', timezone: NY, granularity: DAY_S })).toEqual([
      ['2026-03-07T00:00:00.000-05:00', 1],
      ['2026-03-08T00:00:00.000-05:00', 2],
      ['2026-03-09T00:00:00.000-04:00', 1],
    ]);
  });

  it('hour buckets follow the local clock: 01:00 EST is followed by 03:00 EDT (23 buckets that day)', async () => {
    const project = uniqueProject('ny-spring-hour');
    await fb.createAt(project, [{ at: '2026-03-08T06:59:00Z' }, { at: '2026-03-08T07:00:00Z' }]); // 01:59 EST, 03:00 EDT
    const buckets = await bucketsOf(project, { start: '2026-03-08T05:00:00Z', end: '2026-03-09T04:00:00Z', timezone: NY, granularity: 3600 });
    expect(buckets).toHaveLength(23);
    expect(buckets.slice(0, 4)).toEqual([
      ['2026-03-08T00:00:00.000-05:00', 0], ['2026-03-08T01:00:00.000-05:00', 1],
      ['2026-03-08T03:00:00.000-04:00', 1], ['2026-03-08T04:00:00.000-04:00', 0],
    ]);
    expect(buckets.at(-1)?.[0]).toBe('2026-03-08T23:00:00.000-04:00');
  });

  it('6 h buckets stay on local 00/06/12/18, so the one spanning the change lasts 5 h', async () => {
    const project = uniqueProject('ny-spring-6h');
    await fb.createAt(project, [{ at: '2026-03-08T09:59:00Z' }, { at: '2026-03-08T10:00:00Z' }]); // 05:59 EDT, 06:00 EDT
    const buckets = await bucketsOf(project, { start: '2026-03-08T05:00:00Z', end: '2026-03-09T04:00:00Z', timezone: NY, granularity: 21_600 });
    expect(buckets).toEqual([
      ['2026-03-08T00:00:00.000-05:00', 1], ['2026-03-08T06:00:00.000-04:00', 1],
      ['2026-03-08T12:00:00.000-04:00', 0], ['2026-03-08T18:00:00.000-04:00', 0],
    ]);
  });
});

describe('America/New_York, fall back (2026-11-01, 02:00 EDT -> 01:00 EST)', () => {
  it('the change day lasts 25 h', async () => {
    const project = uniqueProject('ny-fall-day');
    await fb.createAt(project, [{ at: '2026-11-01T04:00:00Z' }, { at: '2026-11-02T04:59:59.999Z' }, { at: '2026-11-02T05:00:00Z' }]);
    expect(await bucketsOf(project, { start: '2026-11-01T04:00:00Z', end: '2026-11-03T05:00:00Z', timezone: NY, granularity: DAY_S })).toEqual([
      ['2026-11-01T00:00:00.000-04:00', 2],
      ['2026-11-02T00:00:00.000-05:00', 1],
    ]);
  });

  it('the repeated hour 01:00 gets two buckets, one per offset (25 buckets that day)', async () => {
    const project = uniqueProject('ny-fall-hour');
    await fb.createAt(project, [{ at: '2026-11-01T05:30:00Z' }, { at: '2026-11-01T06:30:00Z' }, { at: '2026-11-01T06:45:00Z' }]);
    const buckets = await bucketsOf(project, { start: '2026-11-01T04:00:00Z', end: '2026-11-02T05:00:00Z', timezone: NY, granularity: 3600 });
    expect(buckets).toHaveLength(25);
    expect(buckets.slice(1, 4)).toEqual([
      ['2026-11-01T01:00:00.000-04:00', 1], ['2026-11-01T01:00:00.000-05:00', 2], ['2026-11-01T02:00:00.000-05:00', 0],
    ]);
  });

  it('a 6 h bucket across the change lasts 7 h', async () => {
    const project = uniqueProject('ny-fall-6h');
    await fb.createAt(project, [{ at: '2026-11-01T10:59:00Z' }, { at: '2026-11-01T11:00:00Z' }]); // 05:59 EST, 06:00 EST
    const buckets = await bucketsOf(project, { start: '2026-11-01T04:00:00Z', end: '2026-11-01T17:00:00Z', timezone: NY, granularity: 21_600 });
    // end 17:00Z is 12:00 EST, the start of the next bucket, so that bucket is not part of the window.
    expect(buckets).toEqual([['2026-11-01T00:00:00.000-04:00', 1], ['2026-11-01T06:00:00.000-05:00', 1]]);
  });
});

describe('Asia/Kolkata (+05:30, no DST)', () => {
  it('day buckets start at local midnight, 18:30 UTC', async () => {
    const project = uniqueProject('in-day');
    await fb.createAt(project, [{ at: '2026-01-10T18:29:59.999Z' }, { at: '2026-01-10T18:30:00Z' }]);
    expect(await bucketsOf(project, { start: '2026-01-10T00:00:00Z', end: '2026-01-12T00:00:00Z', timezone: 'Asia/Kolkata', granularity: DAY_S })).toEqual([
      ['2026-01-10T00:00:00.000+05:30', 1],
      ['2026-01-11T00:00:00.000+05:30', 1],
      ['2026-01-12T00:00:00.000+05:30', 0],
    ]);
  });

  it('hour buckets start at half past the UTC hour', async () => {
    const project = uniqueProject('in-hour');
    await fb.createAt(project, [{ at: '2026-01-10T00:29:00Z' }, { at: '2026-01-10T00:30:00Z' }, { at: '2026-01-10T01:29:00Z' }]);
    expect(await bucketsOf(project, { start: '2026-01-10T00:00:00Z', end: '2026-01-10T02:00:00Z', timezone: 'Asia/Kolkata', granularity: 3600 })).toEqual([
      ['2026-01-10T05:00:00.000+05:30', 1],
      ['2026-01-10T06:00:00.000+05:30', 2],
      ['2026-01-10T07:00:00.000+05:30', 0],
    ]);
  });

  it('the same instants bucket differently in UTC', async () => {
    const project = uniqueProject('in-utc');
    await fb.createAt(project, [{ at: '2026-01-10T00:29:00Z' }, { at: '2026-01-10T00:30:00Z' }]);
    expect(await bucketsOf(project, { start: '2026-01-10T00:00:00Z', end: '2026-01-10T01:00:00Z', timezone: 'UTC', granularity: 3600 })).toEqual([
      ['2026-01-10T00:00:00.000Z', 2],
    ]);
  });
});
