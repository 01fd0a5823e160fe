// @weft-test: postgres
// Tests of /feedback/stats metrics: numeric, boolean and categorical values, aggregates and percentiles checked
// against simple-statistics on the same values, per bucket and over the window.
import * as ss from 'simple-statistics';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackStatsRes } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { type At, useFeedbackServer } from 'weft-test-kit/feedback-server.js';
import { prng as rng } from '../../../../../examples/prng.js';

const fb = useFeedbackServer();
const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const HOUR = 3_600_000;
const PCTS = [0, 10, 25, 50, 90, 99, 100];

/**
 * The documented percentile definition (linear interpolation between closest ranks, R type 7), written out
 * here; p0, p50 and p100 come from simple-statistics (min, median, max), which that definition must match.
 */
function expectedPercentile(values: number[], p: number): number {
  if (p === 0) return ss.min(values);
  if (p === 50) return ss.median(values);
  if (p === 100) return ss.max(values);
  const sorted = [...values].sort((x, y) => x - y);
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo]! + (h - lo) * (sorted[lo + 1]! - sorted[lo]!) : sorted[lo]!;
}

interface Expected {
  score: number[];
  ok: boolean[];
  label: unknown[];
  count: number;
}

const project = uniqueProject('values');
const perBucket: Expected[] = [];
let res: FeedbackStatsRes;

beforeAll(async () => {
  const random = rng(42);
  const entries: At[] = [];
  for (let b = 0; b < 3; b++) {
    const e: Expected = { score: [], ok: [], label: [], count: 0 };
    const n = b === 1 ? 0 : 40 + b * 7; // bucket 1 stays empty
    for (let i = 0; i < n; i++) {
      const kind = random();
      const score = kind < 0.8 ? Math.round(random() * 1e6) / 1e4 - 20 : kind < 0.85 ? 'high' : kind < 0.9 ? true : kind < 0.95 ? null : undefined;
      const ok = kind < 0.7 ? random() < 0.6 : kind < 0.8 ? 1 : kind < 0.9 ? 'yes' : undefined;
      const label = kind < 0.6 ? ['good', 'bad', 'meh'][Math.floor(random() * 3)] : kind < 0.7 ? 7 : kind < 0.8 ? null : undefined;
      const payload: Record<string, unknown> = { scores: {}, 'my label': label };
      if (score !== undefined) (payload['scores'] as Record<string, unknown>)['helpfulness'] = score;
      if (ok !== undefined) payload['ok'] = ok;
      if (label === undefined) delete payload['my label'];
      entries.push({ at: new Date(T0 + b * HOUR + Math.floor(random() * HOUR)).toISOString(), payload });
      e.count++;
      if (typeof score === 'number') e.score.push(score);
      if (typeof ok === 'boolean') e.ok.push(ok);
      if (label !== undefined && label !== null) e.label.push(label);
    }
    perBucket.push(e);
  }
  await fb.createAt(project, entries);
  res = await fb.stats(project, {
    start: new Date(T0).toISOString(), end: new Date(T0 + 3 * HOUR).toISOString(), granularity: 3600,
    metrics: [
      { json_path: 'scores.helpfulness', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: PCTS },
      { json_path: 'ok', value_type: 'boolean', aggregations: ['count', 'count_true', 'count_false', 'avg', 'sum'], percentiles: [50] },
      { json_path: 'my label', value_type: 'categorical' },
    ],
  });
});

function checkNumeric(got: Record<string, unknown>, values: number[], key: (name: string) => string): void {
  expect(got[key('count')]).toBe(values.length);
  expect(got[key('sum')]).toBeCloseTo(ss.sum(values), 6);
  expect(got[key('avg')]).toBeCloseTo(ss.mean(values), 9);
  expect(got[key('min')]).toBe(ss.min(values));
  expect(got[key('max')]).toBe(ss.max(values));
  for (const p of PCTS) expect(got[key(`p${p}`)], `p${p}`).toBeCloseTo(expectedPercentile(values, p), 9);
}

describe('metrics', () => {
  it('answers one bucket per hour with the row count', () => {
    expect(res.buckets?.map((b) => b.count)).toEqual(perBucket.map((e) => e.count));
    expect(perBucket[0]!.score.length).toBeGreaterThan(20);
  });

  it('numeric: JSON numbers only (strings, booleans, null, missing skipped); sum avg min max count and percentiles', () => {
    for (const [i, e] of [perBucket[0]!, perBucket[2]!].entries()) {
      checkNumeric(res.buckets![i * 2]!, e.score, (name) => `${name}_scores_helpfulness`);
    }
    checkNumeric(res.window_stats!['scores_helpfulness']!, perBucket.flatMap((e) => e.score), (name) => name);
  });

  it('boolean: true/false only; count, count_true, count_false, avg as the share of true, percentiles of 0/1', () => {
    for (const [i, e] of perBucket.entries()) {
      const bucket = res.buckets![i]!;
      const trues = e.ok.filter(Boolean).length;
      // an empty bucket: sum and avg 0, as Weave's COALESCE(sum_*/avg_*, 0); percentiles null
      expect([bucket['count_ok'], bucket['count_true_ok'], bucket['count_false_ok'], bucket['sum_ok']]).toEqual([e.ok.length, trues, e.ok.length - trues, trues]);
      if (e.ok.length) expect(bucket['avg_ok']).toBeCloseTo(ss.mean(e.ok.map(Number)), 12);
      else expect([bucket['avg_ok'], bucket['p50_ok']]).toEqual([0, null]);
    }
    const all = perBucket.flatMap((e) => e.ok.map(Number));
    expect(res.window_stats!['ok']).toEqual({
      count: all.length, count_true: ss.sum(all), count_false: all.length - ss.sum(all), avg: ss.mean(all), sum: ss.sum(all), p50: ss.median(all),
    });
  });

  it('categorical: counts every non-null value (strings, numbers); the default aggregation is count', () => {
    expect(res.buckets?.map((b) => b['count_my_label'])).toEqual(perBucket.map((e) => e.label.length));
    expect(res.window_stats!['my_label']).toEqual({ count: perBucket.reduce((n, e) => n + e.label.length, 0) });
  });

  it('names columns <agg>_<slug> and p<N>_<slug>, slug = json_path with . and spaces as _', () => {
    expect(Object.keys(res.buckets![0]!)).toEqual([
      'timestamp', 'count',
      'sum_scores_helpfulness', 'avg_scores_helpfulness', 'min_scores_helpfulness', 'max_scores_helpfulness', 'count_scores_helpfulness',
      ...PCTS.map((p) => `p${p}_scores_helpfulness`),
      'count_ok', 'count_true_ok', 'count_false_ok', 'avg_ok', 'sum_ok', 'p50_ok',
      'count_my_label',
    ]);
    expect(Object.keys(res.window_stats!)).toEqual(['scores_helpfulness', 'ok', 'my_label']);
  });

  it('defaults: numeric avg, boolean count_true + count_false; fractional percentiles are named p99_9', async () => {
    const out = await fb.stats(project, {
      start: new Date(T0).toISOString(), end: new Date(T0 + HOUR).toISOString(), granularity: 3600,
      metrics: [{ json_path: 'scores.helpfulness', percentiles: [99.9] }, { json_path: 'ok', value_type: 'boolean' }],
    });
    expect(Object.keys(out.window_stats!['scores_helpfulness']!)).toEqual(['avg', 'p99_9']);
    expect(Object.keys(out.window_stats!['ok']!)).toEqual(['count_true', 'count_false']);
    expect(out.window_stats!['scores_helpfulness']!['p99_9']).toBeCloseTo(expectedPercentile(perBucket[0]!.score, 99.9), 9);
  });

  it('reads array indexes in json_path; one past any array (2^31 and more) finds nothing', async () => {
    const p = uniqueProject('index');
    await fb.createAt(p, [{ at: new Date(T0).toISOString(), payload: { xs: [1.5, { v: 2 }] } }]);
    const out = await fb.stats(p, {
      start: new Date(T0).toISOString(), end: new Date(T0 + HOUR).toISOString(), granularity: 3600,
      metrics: ['xs[0]', 'xs[1].v', 'xs[2147483648]', 'xs[9999999999999999999999]'].map((json_path) => ({ json_path, aggregations: ['count', 'max'], percentiles: [50] })),
    });
    expect(out.window_stats).toEqual({
      'xs[0]': { count: 1, max: 1.5, p50: 1.5 }, 'xs[1]_v': { count: 1, max: 2, p50: 2 },
      'xs[2147483648]': { count: 0, max: null, p50: null }, 'xs[9999999999999999999999]': { count: 0, max: null, p50: null },
    });
  });
});
