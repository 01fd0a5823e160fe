// @weft-test: postgres
// Tests of POST /feedback/stats rules over loopback HTTP: window bounds, default end, filters, granularity, gaps, 422.
import { describe, expect, it } from 'vitest';
import { ValidationError } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useFeedbackServer } from 'weft-test-kit/feedback-server.js';
import { post } from 'weft-test-kit/server-http.js';
import { MAX_BUCKETS } from '../../../src/server/stats/stats-buckets.js';

const fb = useFeedbackServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number): string => new Date(ms).toISOString();
const T0 = Date.parse('2026-04-01T00:00:00.000Z');

describe('POST /feedback/stats: window', () => {
  it('counts start inclusively and end exclusively, and answers start/end in UTC', async () => {
    const project = uniqueProject('st-bounds');
    await fb.createAt(project, [T0 - 1, T0, T0 + HOUR, T0 + DAY - 1, T0 + DAY].map((ms) => ({ at: iso(ms) })));
    const res = await fb.stats(project, { start: '2026-04-01T02:00:00+02:00', end: '2026-04-02T00:00:00Z', granularity: 86_400 });
    expect(res.start).toBe('2026-04-01T00:00:00.000Z');
    expect(res.end).toBe('2026-04-02T00:00:00.000Z');
    expect(res.buckets).toEqual([{ timestamp: '2026-04-01T00:00:00.000Z', count: 3 }]);
    expect(res.window_stats).toEqual({});
  });

  it('takes the server clock as end when end is omitted', async () => {
    const project = uniqueProject('st-now');
    await fb.createAt(project, [{ at: iso(T0 + HOUR) }, { at: iso(T0 + 3 * HOUR) }]);
    fb.setNow(iso(T0 + 2 * HOUR));
    const res = await fb.stats(project, { start: iso(T0) });
    expect(res.end).toBe(iso(T0 + 2 * HOUR));
    expect(res.buckets?.reduce((n, b) => n + b.count, 0)).toBe(1);
  });

  it('answers 422 when start is not before the clock and end is omitted', async () => {
    fb.setNow(iso(T0));
    const err = await fb.stats(uniqueProject('st-future'), { start: iso(T0) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail.map((d) => d.loc)).toEqual([['body', 'start']]);
  });

  it("fills gaps: every bucket of the window is present, empty ones as Weave's: counts, sum and avg 0, the rest null", async () => {
    const project = uniqueProject('st-gaps');
    await fb.createAt(project, [{ at: iso(T0 + 10), payload: { v: 2, ok: true } }, { at: iso(T0 + 3 * HOUR + 5), payload: { v: 4, ok: false } }]);
    const res = await fb.stats(project, {
      start: iso(T0), end: iso(T0 + 4 * HOUR), granularity: 3600,
      metrics: [{ json_path: 'v', aggregations: ['sum', 'avg', 'count'], percentiles: [50] }, { json_path: 'ok', value_type: 'boolean' }],
    });
    expect(res.buckets?.map((b) => b.timestamp)).toEqual([0, 1, 2, 3].map((h) => iso(T0 + h * HOUR)));
    expect(res.buckets?.[1]).toEqual({ timestamp: iso(T0 + HOUR), count: 0, sum_v: 0, avg_v: 0, count_v: 0, p50_v: null, count_true_ok: 0, count_false_ok: 0 });
    expect(res.buckets?.[0]).toMatchObject({ count: 1, sum_v: 2, count_true_ok: 1, count_false_ok: 0 });
    expect(res.buckets?.[3]).toMatchObject({ count: 1, sum_v: 4, p50_v: 4, count_true_ok: 0, count_false_ok: 1 });
    expect(res.window_stats).toEqual({ v: { sum: 6, avg: 3, count: 2, p50: 3 }, ok: { count_true: 1, count_false: 1 } });
    // a window without values: sum, avg, min, max and percentiles null (Weave's sumOrNull, avgOrNull, ...)
    const none = await fb.stats(project, { start: iso(T0 + HOUR), end: iso(T0 + 2 * HOUR), metrics: [{ json_path: 'v', aggregations: ['sum', 'avg', 'min', 'count'], percentiles: [50] }] });
    expect(none.window_stats).toEqual({ v: { sum: null, avg: null, min: null, count: 0, p50: null } });
    expect(none.buckets?.[0]).toMatchObject({ count: 0, sum_v: 0, avg_v: 0, min_v: null, count_v: 0, p50_v: null });
  });

  it("answers an empty metrics list as Weave's trace server does (feedback_stats): no buckets, granularity 3600, no window_stats", async () => {
    const project = uniqueProject('st-nometrics');
    await fb.createAt(project, [{ at: iso(T0 + 10), payload: { v: 2 } }]);
    const res = await fb.stats(project, { start: iso(T0), end: iso(T0 + 4 * HOUR), granularity: 60, metrics: [] });
    expect(res).toEqual({ start: iso(T0), end: iso(T0 + 4 * HOUR), granularity: 3600, timezone: 'UTC', buckets: [] });
    // without metrics at all, weft still counts feedback per bucket (docs/interface-notes.md)
    const counted = await fb.stats(project, { start: iso(T0), end: iso(T0 + 4 * HOUR), granularity: 3600 });
    expect(counted.buckets?.map((b) => b.count)).toEqual([1, 0, 0, 0]);
  });
});

describe('POST /feedback/stats: filters', () => {
  it('filters by feedback_type', async () => {
    const project = uniqueProject('st-type');
    await fb.createAt(project, [
      { at: iso(T0), feedback_type: 'thumbs' }, { at: iso(T0 + 1), feedback_type: 'score' }, { at: iso(T0 + 2), feedback_type: 'thumbs' },
    ]);
    const count = async (feedback_type?: string): Promise<number | undefined> =>
      (await fb.stats(project, { start: iso(T0), end: iso(T0 + HOUR), granularity: 3600, feedback_type })).buckets?.[0]?.count;
    expect([await count('thumbs'), await count('score'), await count('other'), await count()]).toEqual([2, 1, 0, 3]);
  });

  it('filters by trigger_ref exactly, or by prefix for every version with :*', async () => {
    const project = uniqueProject('st-trigger');
    const ref = (name: string): string => `svc:///${project}/object/${name}`;
    await fb.createAt(project, [
      { at: iso(T0), trigger_ref: ref('judge:v1') }, { at: iso(T0 + 1), trigger_ref: ref('judge:v2') },
      { at: iso(T0 + 2), trigger_ref: ref('judge2:v1') }, { at: iso(T0 + 3) },
    ]);
    const count = async (trigger_ref: string): Promise<number | undefined> =>
      (await fb.stats(project, { start: iso(T0), end: iso(T0 + HOUR), granularity: 3600, trigger_ref })).buckets?.[0]?.count;
    expect(await count(ref('judge:v1'))).toBe(1);
    expect(await count(ref('judge:*'))).toBe(2);
    expect(await count(ref('judge2:*'))).toBe(1);
    expect(await count(ref('judge:v3'))).toBe(0);
  });

  it('keeps projects apart', async () => {
    const [a, b] = [uniqueProject('st-a'), uniqueProject('st-b')];
    await fb.createAt(a, [{ at: iso(T0) }]);
    expect((await fb.stats(b, { start: iso(T0), end: iso(T0 + HOUR) })).buckets?.every((x) => x.count === 0)).toBe(true);
  });
});

describe('POST /feedback/stats: granularity', () => {
  it.each([
    [2 * HOUR, 300], [2 * HOUR + 1, 3600], [12 * HOUR, 3600], [12 * HOUR + 1000, 21_600],
    [3 * DAY, 21_600], [3 * DAY + 1000, 43_200], [14 * DAY, 43_200], [14 * DAY + 1000, 86_400], [400 * DAY, 86_400],
  ])('chooses it from the range when omitted: %i ms -> %i s', async (range, granularity) => {
    const res = await fb.stats(uniqueProject('st-auto'), { start: iso(T0), end: iso(T0 + range) });
    expect(res.granularity).toBe(granularity);
    expect(res.buckets).toHaveLength(Math.ceil(range / (granularity * 1000)));
  });

  it('keeps a requested granularity, and raises any that would give more than 10,000 buckets', async () => {
    const project = uniqueProject('st-cap');
    expect((await fb.stats(project, { start: iso(T0), end: iso(T0 + HOUR), granularity: 60 })).buckets).toHaveLength(60);
    const year = await fb.stats(project, { start: iso(T0), end: iso(T0 + 365 * DAY), granularity: 60 });
    expect(year.granularity).toBe(3600);
    expect(year.buckets).toHaveLength(8760);
    const long = await fb.stats(project, { start: '1990-01-01T00:00:00Z', end: '2026-01-01T00:00:00Z' });
    expect(long.granularity % 86_400).toBe(0);
    expect(long.buckets!.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(long.buckets!.length).toBeGreaterThan(MAX_BUCKETS / 2);
    const exact = await fb.stats(project, { start: iso(T0), end: iso(T0 + MAX_BUCKETS * 60_000), granularity: 60 });
    expect([exact.granularity, exact.buckets?.length]).toEqual([60, MAX_BUCKETS]);
  });

  it('aligns buckets to the granularity: the first starts at or before start', async () => {
    const project = uniqueProject('st-align');
    await fb.createAt(project, [{ at: iso(T0 + 20 * 60_000) }, { at: iso(T0 + 35 * 60_000) }]);
    const res = await fb.stats(project, { start: iso(T0 + 25 * 60_000), end: iso(T0 + 95 * 60_000), granularity: 1800 });
    expect(res.buckets).toEqual([
      { timestamp: iso(T0), count: 0 }, { timestamp: iso(T0 + 30 * 60_000), count: 1 },
      { timestamp: iso(T0 + 60 * 60_000), count: 0 }, { timestamp: iso(T0 + 90 * 60_000), count: 0 },
    ]);
  });
});

describe('POST /feedback/stats: validation', () => {
  async function detail(body: Record<string, unknown>): Promise<string[][]> {
    const res = await post(fb.server(), '/feedback/stats', { project_id: 'acme/demo', start: iso(T0), ...body });
    expect(res.status).toBe(422);
    return ((await res.json()) as { detail: { loc: string[] }[] }).detail.map((d) => d.loc);
  }

  it('answers 422 with a loc for each bad field', async () => {
    expect(await detail({ timezone: 'Mars/Olympus' })).toEqual([['body', 'timezone']]);
    expect(await detail({ end: iso(T0) })).toEqual([['body', 'end']]);
    expect(await detail({ start: 'yesterday' })).toEqual([['body', 'start']]);
    expect(await detail({ granularity: 0 })).toEqual([['body', 'granularity']]);
    expect(await detail({ trigger_ref: 'judge:*' })).toEqual([['body', 'trigger_ref']]);
    expect(await detail({ metrics: [{ json_path: 'a..b' }] })).toEqual([['body', 'metrics', '0', 'json_path']]);
    expect(await detail({ metrics: [{ json_path: 'a', aggregations: ['median'] }] })).toEqual([['body', 'metrics', '0', 'aggregations', '0']]);
    expect(await detail({ metrics: [{ json_path: 'a', value_type: 'categorical', aggregations: ['count', 'avg'] }] })).toEqual([['body', 'metrics', '0', 'aggregations', '1']]);
    expect(await detail({ metrics: [{ json_path: 'a', value_type: 'categorical', percentiles: [50] }] })).toEqual([['body', 'metrics', '0', 'percentiles']]);
    expect(await detail({ metrics: [{ json_path: 'a', percentiles: [101] }] })).toEqual([['body', 'metrics', '0', 'percentiles', '0']]);
    expect(await detail({ metrics: [{ json_path: 'a b' }, { json_path: 'a.b' }] })).toEqual([['body', 'metrics', '1', 'json_path']]);
  });
});
