// @weft-test: postgres
// The overview while the rollup job catches up (issue 54, point 3), on both stores: the stale hours of a window are
// counted live newest first up to a bound of roots, the older ones are left out and said so (`source.pendingHours`, the
// `x-weft-overview-source` header), the hours the job has done are read from rollups; with the bound not reached, or
// once the job is done, the answer is the live count's.
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { refreshRollupHour, refreshStaleHours, startRollupJob } from '../../../src/server/calls/jobs/rollup-job.js';
import { LIVE_ROOTS } from '../../../src/server/calls/overview/overview-live-bound.js';
import type { UpsertItem } from '../../../src/server/calls/write/call-fields.js';
import { OVERVIEW_PENDING_HEADER, OVERVIEW_SOURCE_HEADER } from '../../../src/server/calls/overview-route.js';
import { planBuckets } from '../../../src/server/stats/stats-buckets.js';
import { MAX_LIVE_RANGES, planOverview } from '../../../src/server/calls/overview/overview-plan.js';
import { storeParts } from '../../../src/server/server-store.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';

const server = useTestServer();
const T0 = Date.parse('2024-06-01T00:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();
const NOW = new Date(T0 + 48 * HOUR);

/** Three ended roots in each of hours 0-5 (hour h's roots fail when h is odd), by model. */
function roots(project: string): UpsertItem[] {
  const items: UpsertItem[] = [];
  for (let h = 0; h < 6; h++) {
    for (let i = 0; i < 3; i++) {
      const id = newId();
      const t = T0 + h * HOUR + i * 600_000 + 1000;
      items.push({ mode: 'start', req: { start: { project_id: project, id, op_name: 'agent', started_at: iso(t), attributes: {}, inputs: {} } } } as UpsertItem);
      items.push({ mode: 'end', req: { end: { project_id: project, id, ended_at: iso(t + 100 * (i + 1)), summary: { usage: { 'gpt-4o': { input_tokens: 10, output_tokens: 1, requests: 1 } } }, ...(h % 2 ? { exception: 'boom' } : {}) } } } as UpsertItem);
    }
  }
  return items;
}

const query = (project: string, startMs = T0, endMs = T0 + 6 * HOUR) =>
  ({ projectId: project, startMs, endMs, edges: planBuckets(startMs, endMs, 3600, 'UTC').edges, groupBy: 'model' as const });

describe('the overview of stale hours', () => {
  it('counts the newest stale hours live up to the bound and leaves the older ones out, said so', async () => {
    const project = uniqueProject('live-bound');
    const calls = storeParts(server().store).calls;
    await calls.upsertBatch(roots(project));
    const live = await calls.overview(query(project), false);
    // 7 roots at most: hours 5 and 4 (6 roots) fit, hour 3 does not
    const bounded = await calls.overviewAnswer(query(project), { liveRoots: 7 });
    expect(bounded.source).toEqual({ rollupHours: 0, liveRanges: 1, pendingHours: 4 });
    expect(bounded.result.totals.calls).toBe(6);
    expect(bounded.result.buckets.map((b) => b.calls)).toEqual([0, 0, 0, 0, 3, 3]);
    expect(bounded.result.buckets.slice(4)).toEqual(live.buckets.slice(4));
    expect(bounded.result.groups![0]!.buckets.slice(4)).toEqual(live.groups![0]!.buckets.slice(4));
    // the job did hours 0 and 1 (oldest first): read from rollups; hours 4-5 live, 2-3 left out
    await refreshRollupHour(calls, project, '2024-06-01T00', NOW);
    await refreshRollupHour(calls, project, '2024-06-01T01', NOW);
    const partly = await calls.overviewAnswer(query(project), { liveRoots: 7 });
    expect(partly.source).toEqual({ rollupHours: 2, liveRanges: 1, pendingHours: 2 });
    expect(partly.result.buckets.map((b) => b.calls)).toEqual([3, 3, 0, 0, 3, 3]);
    expect(partly.result.buckets.map((b) => b.errors)).toEqual([0, 3, 0, 0, 0, 3]);
    // the bound not reached: the live count's answer
    const whole = await calls.overviewAnswer(query(project), { liveRoots: 12 });
    expect(whole.source.pendingHours).toBe(0);
    expect(whole.result).toEqual(live);
    // an unaligned window: its partial hours at both ends are counted whatever the bound
    // (hours 2-4 left out; the 2 roots of hour 0 after 00:05, hour 1 from its rollup, the 2 roots of hour 5 before 05:15)
    const cut = await calls.overviewAnswer(query(project, T0 + 5 * 60_000, T0 + 5 * HOUR + 15 * 60_000), { liveRoots: 1 });
    expect(cut.source).toEqual({ rollupHours: 1, liveRanges: 2, pendingHours: 3 });
    expect(cut.result.totals.calls).toBe(2 + 3 + 2);
  });

  it('takes turns on SQLite, an hour of live roots each, and adds them up to the answer of one read', async () => {
    const project = uniqueProject('live-bound');
    const calls = storeParts(server().store).calls;
    await calls.upsertBatch(roots(project));
    let turns = 0;
    const turn = async <T>(job: () => T): Promise<T> => (turns++, job());
    // an unaligned window: hours 0-5 stale, a partial hour at each end
    const q = query(project, T0 - 30 * 60_000, T0 + 6 * HOUR + 30 * 60_000);
    const inTurns = await calls.overviewInTurns(q, turn);
    expect(inTurns).toEqual(await calls.overviewAnswer(q));
    expect(inTurns.result).toEqual(await calls.overview(q, false));
    expect(turns).toBe(storeParts(server().store).sqlite ? 1 + 8 + 1 : 1);
  });

  it('never counts a left-out hour live when it merges live ranges past their limit', () => {
    // 300 hours, bucket edges at hh:30 of every even hour (so each even hour is cut: live), every odd hour stale; the
    // odd hours before the cut (150 h) are left out: 75 live ranges between them, over MAX_LIVE_RANGES
    const edges = [T0];
    for (let h = 0; h < 300; h += 2) edges.push(T0 + h * HOUR + 30 * 60_000);
    edges.push(T0 + 300 * HOUR);
    const stale = new Set<string>();
    for (let h = 1; h < 300; h += 2) stale.add(iso(T0 + h * HOUR).slice(0, 13));
    const plan = planOverview(T0, T0 + 300 * HOUR, edges, stale, T0 + 150 * HOUR);
    expect(plan.pending).toBe(75);
    expect(plan.ranges.length).toBeGreaterThan(MAX_LIVE_RANGES);
    for (let h = 1; h < 150; h += 2) expect(plan.ranges.some(([a, z]) => a < T0 + (h + 1) * HOUR && z > T0 + h * HOUR), `hour ${h}`).toBe(false);
    expect(plan.ranges.at(-1)).toEqual([T0 + 150 * HOUR, T0 + 300 * HOUR]);
  });

  it('leaves stale hours out only while a rollup job runs: a server without one counts them all', async () => {
    const project = uniqueProject('live-bound');
    const calls = storeParts(server().store).calls;
    const n = LIVE_ROOTS[storeParts(server().store).pg ? 'postgres' : 'sqlite'] + 300;
    const at = (i: number): string => iso(T0 + 100 * HOUR + Math.floor((i / n) * 3 * HOUR));
    for (let from = 0; from < n; from += 1000) {
      await calls.upsertBatch(Array.from({ length: Math.min(1000, n - from) }, (_, k) => {
        const id = newId();
        return { mode: 'start', req: { start: { project_id: project, id, op_name: 'agent', started_at: at(from + k), attributes: {}, inputs: {} } } } as UpsertItem;
      }));
    }
    const q = query(project, T0 + 100 * HOUR, T0 + 103 * HOUR);
    expect((await calls.overviewAnswer(q)).source.pendingHours).toBe(0);
    // a job whose clock is before these hours leaves them stale
    const job = startRollupJob(calls, { intervalMs: 3_600_000, log: () => {}, now: () => new Date(T0) });
    try {
      await job.runNow();
      const bounded = await calls.overviewAnswer(q);
      expect(bounded.source.pendingHours).toBe(1);
      expect(bounded.result.totals.calls).toBeLessThan(n);
    } finally {
      await job.stop();
    }
    const all = await calls.overviewAnswer(q);
    expect([all.source.pendingHours, all.result.totals.calls]).toEqual([0, n]);
  }, 60_000);

  it('says where the answer came from in x-weft-overview-source', async () => {
    const project = uniqueProject('live-bound');
    const calls = storeParts(server().store).calls;
    await calls.upsertBatch(roots(project));
    const ask = async (startMs: number, endMs: number): Promise<[string | null, string | null, number]> => {
      const res = await post(server(), '/weft/calls/overview', { project_id: project, start: iso(startMs), end: iso(endMs), granularity: 3600 });
      expect(res.status).toBe(200);
      const { totals } = (await res.json()) as { totals: { calls: number } };
      return [res.headers.get(OVERVIEW_SOURCE_HEADER), res.headers.get(OVERVIEW_PENDING_HEADER), totals.calls];
    };
    expect(await ask(T0, T0 + 6 * HOUR)).toEqual(['rows', null, 18]);
    await refreshStaleHours(calls, NOW);
    expect(await ask(T0, T0 + 6 * HOUR)).toEqual(['rollups', null, 18]);
    expect(await ask(T0 + 60_000, T0 + 6 * HOUR)).toEqual(['rollups+rows', null, 17]);
  });
});
