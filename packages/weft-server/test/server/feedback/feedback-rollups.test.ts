// @weft-test: postgres (the feedback rollups against a live count, on both stores)
// The feedback rollups (issue 54, point 2) over loopback HTTP, on both stores: after a random workload (batches of
// feedback over several hours, re-sent ids, purges, retention of the calls they are about) with the rollup job run at
// random points, /feedback/stats answers exactly what the store answers reading every row, whatever the buckets (hourly
// from rollups, half-hourly or in a zone off the hour from rows), metrics and filters; and says where it read them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALLS_DELETE_BEFORE_PATH, FeedbackStatsReq } from 'weft-trace/wire';
import { refreshStaleFeedbackHours } from '../../../src/server/feedback/feedback-rollup-job.js';
import { STATS_SOURCE_HEADER } from '../../../src/server/feedback/feedback-routes.js';
import { storeParts } from '../../../src/server/server-store.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, type Json, post, start, startItem } from 'weft-test-kit/server-http.js';

const T0 = Date.parse('2024-05-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const LATER = T0 + 30 * 24 * HOUR;
const iso = (ms: number): string => new Date(ms).toISOString();
/** Instants the server clock reads next (feedback `created_at`), else LATER. */
const clock: number[] = [];
const server = useTestServer({ now: () => new Date(clock.shift() ?? LATER) });
const TYPES = ['score', 'judge'];
const CALLS = 6;

/** One generated feedback: when (minute after T0), type, call, payload. */
interface Fb {
  minute: number;
  type: number;
  call: number;
  payload: Json;
}

// dyadic numbers (multiples of 1/8): every sum is exact, so the rows' compensated sum and the rollups' exact one agree
const num = fc.integer({ min: -8000, max: 8000 }).map((n) => n / 8);
const payloadArb: fc.Arbitrary<Json> = fc.record({
  score: fc.option(fc.oneof(num, fc.constant('n/a')), { nil: undefined }),
  ok: fc.option(fc.boolean(), { nil: undefined }),
  label: fc.option(fc.oneof(fc.constantFrom('good', 'bad'), fc.constant(null), fc.constant([1, 2])), { nil: undefined }),
  a: fc.option(fc.oneof(fc.record({ b: num }), fc.constant([{ b: 1 }])), { nil: undefined }),
}, { requiredKeys: [] });
const fbArb: fc.Arbitrary<Fb> = fc.record({
  minute: fc.integer({ min: 0, max: 6 * 60 - 1 }), type: fc.integer({ min: 0, max: 1 }), call: fc.integer({ min: 0, max: CALLS - 1 }), payload: payloadArb,
});

type Step = { kind: 'send'; items: Fb[] } | { kind: 'resend'; which: number } | { kind: 'purge'; which: number }
  | { kind: 'job'; hour: number } | { kind: 'retention'; minute: number };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('send' as const), items: fc.array(fbArb, { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resend' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('purge' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('job' as const), hour: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retention' as const), minute: fc.integer({ min: 0, max: 6 * 60 }) }) },
);

const numeric = (json_path: string): Json => ({ json_path, value_type: 'numeric', aggregations: ['sum', 'avg', 'min', 'max', 'count'] });
const METRICS = [{ ...numeric('score'), percentiles: [0, 25, 50, 95, 100] }, numeric('a.b'), { json_path: 'ok', value_type: 'boolean', aggregations: ['count_true', 'count_false', 'count', 'avg'] },
  { json_path: 'label', value_type: 'categorical' }];
/** The requests compared: hourly (rollups), half-hourly and off-the-hour zones (rows), a type filter, the auto granularity. */
const REQUESTS: Json[] = [
  { granularity: 3600, metrics: METRICS },
  { granularity: 3600, feedback_type: 'judge', metrics: METRICS },
  { granularity: 7200, metrics: [METRICS[0]!] },
  { granularity: 1800, metrics: METRICS },
  { granularity: 3600, timezone: 'Asia/Kathmandu', metrics: METRICS },
  { metrics: METRICS },
];

/** The answer of each request over HTTP (with its source), and the store's answer from rows alone. */
async function expectSameAsRows(project: string, now: number): Promise<string[]> {
  const sources: string[] = [];
  for (const r of REQUESTS) {
    const body = { project_id: project, start: iso(T0), end: iso(T0 + 6 * HOUR), ...r };
    clock.push(now);
    const res = await post(server(), '/feedback/stats', body);
    expect(res.status).toBe(200);
    sources.push(res.headers.get(STATS_SOURCE_HEADER) ?? '');
    const rows = await storeParts(server().store).feedback.stats(FeedbackStatsReq.parse(body), new Date(now), false);
    expect(await res.json(), JSON.stringify(r)).toEqual(rows.res);
  }
  return sources;
}

async function runWorkload(steps: Step[]): Promise<string[]> {
  const project = uniqueProject('fb-rollups');
  await batch(server(), Array.from({ length: CALLS }, (_, i) => startItem(start({ project_id: project, id: `c${i}`, started_at: iso(T0 + i * HOUR) }))));
  const sent: Json[][] = [];
  let n = 0;
  const feedback = storeParts(server().store).feedback;
  for (const step of steps) {
    if (step.kind === 'send') {
      const items = step.items.map((f) => ({
        id: `00000000-0000-7000-8000-${String(n++).padStart(12, '0')}`, project_id: project, feedback_type: TYPES[f.type],
        svc_ref: `svc:///${project}/call/c${f.call}`, payload: f.payload,
      }));
      clock.push(...step.items.map((f) => T0 + f.minute * MIN));
      expect((await post(server(), '/feedback/batch/create', { batch: items })).status).toBe(200);
      sent.push(items);
    } else if (step.kind === 'resend' && sent.length > 0) {
      // the same ids again, later and with other payloads: stored once, as first sent
      const again = sent[step.which % sent.length]!;
      clock.push(...again.map(() => T0 + 5 * HOUR));
      expect((await post(server(), '/feedback/batch/create', { batch: again.map((x) => ({ ...x, payload: { score: 999 } })) })).status).toBe(200);
    } else if (step.kind === 'purge' && sent.length > 0) {
      const ids = sent[step.which % sent.length]!.map((x) => x['id']).filter((_, i) => i % 2 === 0);
      expect((await post(server(), '/feedback/purge', { project_id: project, query: { $expr: { $or: ids.map((id) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] })) } } })).status).toBe(200);
    } else if (step.kind === 'job') {
      await refreshStaleFeedbackHours(feedback, new Date(T0 + step.hour * HOUR));
    } else if (step.kind === 'retention') {
      expect((await post(server(), CALLS_DELETE_BEFORE_PATH, { project_id: project, before: iso(T0 + step.minute * MIN) })).status).toBe(200);
    }
  }
  await expectSameAsRows(project, T0 + 3 * HOUR + 30 * MIN);
  await refreshStaleFeedbackHours(feedback, new Date(LATER));
  return expectSameAsRows(project, LATER);
}

describe('feedback rollups', () => {
  it('answer what the rows answer, after any workload, and are read for whole hours', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
      const sources = await runWorkload(steps);
      // after the job: hourly and two-hourly buckets from rollups; half-hourly and Kathmandu's from rows
      expect(sources.slice(0, 5)).toEqual(['rollups', 'rollups', 'rollups', 'rows', 'rows']);
    }), { numRuns: 12 });
  }, 120_000);

  it('a write marking the hour while the job reads it keeps the hour stale: the job stores nothing over it', async () => {
    const project = uniqueProject('fb-race');
    const feedback = storeParts(server().store).feedback;
    const hour = new Date(T0 + HOUR).toISOString().slice(0, 13);
    const send = async (id: string, score: number): Promise<void> => {
      clock.push(T0 + HOUR + 5 * MIN);
      const item = { id, project_id: project, feedback_type: 'score', svc_ref: `svc:///${project}/call/c0`, payload: { score } };
      expect((await post(server(), '/feedback/batch/create', { batch: [item] })).status).toBe(200);
    };
    await send('00000000-0000-7000-8000-00000000aaa1', 1);
    const gen = await feedback.rollupMarkGen(project, hour);
    expect(gen).toBeDefined();
    expect(await feedback.rollupHourRows(project, hour, null, 100)).toHaveLength(1);
    await send('00000000-0000-7000-8000-00000000aaa2', 2); // between the job's read and its store
    expect(await feedback.storeRollupHour(project, hour, gen!, [])).toBe(false);
    expect(await feedback.rollupMarkGen(project, hour)).toBe(gen! + 1);
    await expectSameAsRows(project, LATER);
    await refreshStaleFeedbackHours(feedback, new Date(LATER));
    expect(await feedback.rollupMarkGen(project, hour)).toBeUndefined();
    expect((await expectSameAsRows(project, LATER))[0]).toBe('rollups');
  });

  it('a re-sent id, a purge and retention each leave the rollups exact (explicit cases)', async () => {
    const one = (minute: number, payload: Json): Fb => ({ minute, type: 0, call: 1, payload });
    const sources = await runWorkload([
      { kind: 'send', items: [one(70, { score: 1.5, ok: true }), one(75, { score: 2, ok: false }), one(130, { score: 4 })] },
      { kind: 'job', hour: 7 },
      { kind: 'resend', which: 0 },
      { kind: 'purge', which: 0 },
      { kind: 'job', hour: 7 },
      { kind: 'retention', minute: 119 },
    ]);
    expect(sources[0]).toBe('rollups');
  });
});
