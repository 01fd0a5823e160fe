// The overview's rollup job catching up (issue 54, point 3), both stores: N roots (BENCH_CATCHUP_ROOTS, default
// 300,000) over BENCH_CATCHUP_DAYS (default 30) written through the store (every hour marked, as after a bulk import or
// the upgrade's backfill), the store closed and opened again (a restart), then:
// - the first overview after the restart (by model, the last 30 days), next to the same read counting every root live
//   (the read before slicing and bounds, the base of the ratios);
// - the job run to the end while that overview is asked every BENCH_CATCHUP_EVERY_MS (default 2,000) and a one-root
//   write every 50 ms: the job's longest turn (claim, slice or store: what a write or, on SQLite, any request waits
//   behind), the event loop's longest delay, the writes' waits, the reads' latencies and the stale hours they left out;
// - one hour counted in one turn (the job before slicing) at the densest hour, the base of the turn ratio;
// - after it, the overview of an hour-aligned and of an unaligned 30-day window (median of 5).
// `npx tsx --conditions=weft-source bench/overview-catchup.ts`; BENCH_CATCHUP_STORES (default sqlite,postgres),
// BENCH_CATCHUP_SLICE_ROOTS (roots per slice; default the engine's ROLLUP_SLICE_ROOTS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { newId } from '../packages/weft-trace/src/internal/ids.js';
import { openStore } from '../packages/weft-server/src/server/store.js';
import { openPgStore } from '../packages/weft-server/src/server/pg-store.js';
import { type ServerStore, storeParts } from '../packages/weft-server/src/server/server-store.js';
import { refreshStaleHours } from '../packages/weft-server/src/server/calls/jobs/rollup-job.js';
import { callTurns } from '../packages/weft-server/src/server/calls/call-turns.js';
import type { CallStore } from '../packages/weft-server/src/server/calls/call-store.js';
import { planBuckets } from '../packages/weft-server/src/server/stats/stats-buckets.js';
import { contextLine } from './lib/context-line.js';
import { startBenchCluster } from './lib/pg-cluster.js';
import { printTable } from './lib/table.js';

const ROOTS = Number(process.env.BENCH_CATCHUP_ROOTS) || 300_000;
const DAYS = Number(process.env.BENCH_CATCHUP_DAYS) || 30;
const EVERY = Number(process.env.BENCH_CATCHUP_EVERY_MS) || 2_000;
const STORES = (process.env.BENCH_CATCHUP_STORES ?? 'sqlite,postgres').split(',');
const SLICE = Number(process.env.BENCH_CATCHUP_SLICE_ROOTS) || undefined; // default: the engine's ROLLUP_SLICE_ROOTS
const PROJECT = 'bench/catchup';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.now();
const START = NOW - DAYS * DAY;
const MODELS = ['gpt-4o', 'claude-3-5-sonnet-20241022'];

const root = (t: number, i: number): unknown[] => {
  const id = newId();
  return [
    { mode: 'start', req: { start: { project_id: PROJECT, id, trace_id: id, op_name: ['agent', 'search', 'plan'][i % 3], started_at: new Date(t).toISOString(), inputs: {}, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: new Date(t + 50 + (i * 7919) % 20_000).toISOString(), summary: { status_counts: { success: 1, error: 0 }, usage: { [MODELS[i % 2]!]: { input_tokens: 100, output_tokens: 20, requests: 1 } } } } } },
  ];
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const ms = (xs: number[]): string => (xs.length === 0 ? '-' : `${Math.max(...xs).toFixed(0)} max, ${p95(xs).toFixed(0)} p95, ${median(xs).toFixed(0)} median, n=${xs.length}`);
const timed = async <T>(f: () => T | Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
};

/** Times each call of the job's store methods (each one turn of the job), all in `turns` and by part in `parts`. */
function timeTurns(calls: CallStore, turns: number[], parts: Map<string, number[]>): void {
  for (const name of ['claimRollupHour', 'rollupHourSlice', 'storeRollupHour'] as const) {
    const method = (calls[name] as (...a: unknown[]) => unknown).bind(calls);
    (calls as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const part = name === 'rollupHourSlice' ? (args[2] === null ? 'first slice' : 'next slice') : name.slice(0, 5);
      const t0 = performance.now();
      const took = <T>(v: T): T => {
        const t = performance.now() - t0;
        turns.push(t);
        if (!parts.has(part)) parts.set(part, []);
        parts.get(part)!.push(t);
        return v;
      };
      const out = method(...args);
      return out instanceof Promise ? out.then(took) : took(out);
    };
  }
}

const rows: string[][] = [];
console.log(contextLine());
const cluster = STORES.includes('postgres') ? startBenchCluster() : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'weft-catchup-'));
try {
  for (const storeName of STORES) {
    const dbUrl = storeName === 'postgres' ? await cluster!.freshDatabase() : undefined;
    const open = async (): Promise<ServerStore> => (dbUrl ? openPgStore(dbUrl) : openStore(join(tmp, 'calls.db')));
    let store = await open();
    for (let at = 0; at < ROOTS; at += 500) {
      const items: unknown[] = [];
      for (let i = at; i < Math.min(ROOTS, at + 500); i++) items.push(...root(START + Math.floor((i / ROOTS) * DAYS * DAY), i));
      await store.upsertBatch(items as never);
    }
    await store.close();
    store = await open(); // the restart
    const calls = storeParts(store).calls;
    const turns = callTurns(calls);
    calls.defaultLiveRoots = undefined; // as under `weft serve`: the engine's bound on live counting applies
    const window = (aligned: boolean) => {
      const end = aligned ? Math.floor(Date.now() / HOUR) * HOUR : Date.now();
      return { projectId: PROJECT, startMs: end - 30 * DAY, endMs: end, edges: planBuckets(end - 30 * DAY, end, undefined, 'UTC').edges, groupBy: 'model' as const };
    };
    // as the route reads (on SQLite an hour of live roots per turn)
    const read = (aligned = false) => timed(() => calls.overviewInTurns(window(aligned), (job) => turns.run(job)));
    const [first, firstMs] = await read();
    const [, allLiveMs] = await timed(() => calls.overview(window(false), false));
    // the base of the writes' waits: the same write with no job and no read running
    const idleWrites: number[] = [];
    for (let i = 0; i < 40; i++) {
      idleWrites.push((await timed(() => turns.run(() => store.upsertBatch(root(NOW - 2 * HOUR, 1_000_000_000 + i) as never))))[1]);
      await new Promise((r) => setTimeout(r, 50));
    }
    rows.push([storeName, 'a write, no job or read running (ms)', ms(idleWrites)]);
    const jobTurns: number[] = [];
    const parts = new Map<string, number[]>();
    timeTurns(calls, jobTurns, parts);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    let done = false;
    const [hours, jobMs] = await timed(async () => {
      const job = refreshStaleHours(calls, new Date(NOW + DAY), { sliceRoots: SLICE }).finally(() => (done = true));
      const reads: number[] = [];
      const pending: number[] = [];
      const writes: number[] = [];
      const reader = (async () => {
        while (!done) {
          const [a, t] = await read();
          reads.push(t);
          pending.push(a.source.pendingHours);
          await new Promise((r) => setTimeout(r, EVERY));
        }
      })();
      const writer = (async () => {
        for (let i = 0; !done; i++) {
          writes.push((await timed(() => turns.run(() => store.upsertBatch(root(NOW - 2 * HOUR, i) as never))))[1]);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const n = await job;
      await Promise.all([reader, writer]);
      rows.push([storeName, 'a write during catch-up (ms)', ms(writes)], [storeName, 'overview by model, last 30 days, during (ms)', ms(reads)],
        [storeName, 'stale hours left out by those reads', `${Math.max(...pending, 0)} max, ${median(pending.length ? pending : [0])} median`]);
      return n;
    });
    loop.disable();
    const during = [...jobTurns];
    const byPart = [...parts].map(([part, ts]) => `${part} ${Math.max(...ts).toFixed(0)} max / ${p95(ts).toFixed(0)} p95 / ${median(ts).toFixed(0)} median`).join('; ');
    const longestTurn = Math.max(...during);
    // the hours the last writes marked, done too (what is read after)
    await refreshStaleHours(calls, new Date(NOW + DAY));
    // an hour in the middle counted in one turn, as the job did before slicing
    const dense = new Date(START + Math.floor(DAYS * DAY / 2)).toISOString().slice(0, 13);
    const [, wholeHourMs] = await timed(() => calls.rollupHourSlice(PROJECT, dense, null, 1e9));
    const after = async (aligned: boolean): Promise<number> => {
      const ts: number[] = [];
      for (let i = 0; i < 5; i++) ts.push((await read(aligned))[1]);
      return median(ts);
    };
    const [alignedMs, unalignedMs] = [await after(true), await after(false)];
    const line = (what: string, figure: string): string[] => [storeName, what, figure];
    rows.push(
      line('roots; days; hours refreshed; job ms', `${ROOTS}; ${DAYS}; ${hours}; ${jobMs.toFixed(0)}`),
      line('first overview after the restart (ms; source)', `${firstMs.toFixed(0)}; ${first.source.rollupHours} rollup hours, ${first.source.pendingHours} left out`),
      line('the same counting every root live (ms; ratio)', `${allLiveMs.toFixed(0)}; first read ${(firstMs / allLiveMs).toFixed(3)}x`),
      line('job turn: claim, slice or store (ms)', ms(during)),
      line('job turn by part (ms)', byPart),
      line('one hour in one turn, before slicing (ms; ratio)', `${wholeHourMs.toFixed(0)}; longest turn ${(longestTurn / wholeHourMs).toFixed(2)}x, median ${(median(during) / wholeHourMs).toFixed(2)}x`),
      line('event loop delay during (ms)', `${(loop.max / 1e6).toFixed(0)} max, ${(loop.percentile(99) / 1e6).toFixed(0)} p99`),
      line('after: aligned / unaligned 30 days (ms, median of 5)', `${alignedMs.toFixed(0)} / ${unalignedMs.toFixed(0)}`),
    );
    console.log(rows.filter((r) => r[0] === storeName).map((r) => r.join(' · ')).join('\n'));
    await store.close();
  }
} finally {
  cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
printTable(`The overview's rollup job catching up over ${ROOTS.toLocaleString('en-US')} roots · ${contextLine()}`, ['store', 'what', 'figure'], rows);
