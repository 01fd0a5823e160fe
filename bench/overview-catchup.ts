// The overview's rollup job catching up (issue 54, point 3), both stores: N roots (BENCH_CATCHUP_ROOTS, default
// 300,000) over 30 days written through the store (every hour marked, as after a bulk import or the upgrade's
// backfill), then the job run to the end while `POST /weft/calls/overview` of the last 30 days (by model) is asked
// every BENCH_CATCHUP_EVERY_MS (default 2,000) and a one-root write every 50 ms: the longest single hour refresh (a
// turn writes wait behind; on SQLite also the event loop's), the event loop's longest delay, the writes' longest wait
// and the reads' latencies during the catch-up, then one read after it.
// `npx tsx --conditions=weft-source bench/overview-catchup.ts`; BENCH_CATCHUP_STORES (default sqlite,postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { newId } from '../packages/weft-trace/src/internal/ids.js';
import { openStore } from '../packages/weft-server/src/server/store.js';
import { openPgStore } from '../packages/weft-server/src/server/pg-store.js';
import { storeParts } from '../packages/weft-server/src/server/server-store.js';
import { refreshStaleHours } from '../packages/weft-server/src/server/calls/jobs/rollup-job.js';
import { callTurns } from '../packages/weft-server/src/server/calls/call-turns.js';
import { planBuckets } from '../packages/weft-server/src/server/stats/stats-buckets.js';
import { contextLine } from './lib/context-line.js';
import { startBenchCluster } from './lib/pg-cluster.js';
import { printTable } from './lib/table.js';

const ROOTS = Number(process.env.BENCH_CATCHUP_ROOTS) || 300_000;
const EVERY = Number(process.env.BENCH_CATCHUP_EVERY_MS) || 2_000;
const STORES = (process.env.BENCH_CATCHUP_STORES ?? 'sqlite,postgres').split(',');
const PROJECT = 'bench/catchup';
const DAY = 86_400_000;
const NOW = Date.now();
const START = NOW - 30 * DAY;
const MODELS = ['gpt-4o', 'claude-3-5-sonnet-20241022'];

const root = (t: number, i: number): unknown[] => {
  const id = newId();
  return [
    { mode: 'start', req: { start: { project_id: PROJECT, id, trace_id: id, op_name: ['agent', 'search', 'plan'][i % 3], started_at: new Date(t).toISOString(), inputs: {}, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: new Date(t + 50 + (i * 7919) % 20_000).toISOString(), summary: { status_counts: { success: 1, error: 0 }, usage: { [MODELS[i % 2]!]: { input_tokens: 100, output_tokens: 20, requests: 1 } } } } } },
  ];
};
const ms = (xs: number[]): string => (xs.length === 0 ? '-' : `${Math.max(...xs).toFixed(0)} max, ${[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0)} median, n=${xs.length}`);

const rows: string[][] = [];
console.log(contextLine());
const cluster = STORES.includes('postgres') ? startBenchCluster() : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'weft-catchup-'));
try {
  for (const storeName of STORES) {
    const store = storeName === 'sqlite' ? openStore(join(tmp, 'calls.db')) : await openPgStore(await cluster!.freshDatabase());
    for (let at = 0; at < ROOTS; at += 500) {
      const items: unknown[] = [];
      for (let i = at; i < Math.min(ROOTS, at + 500); i++) items.push(...root(START + Math.floor((i / ROOTS) * 30 * DAY), i));
      await store.upsertBatch(items as never);
    }
    const calls = storeParts(store).calls;
    const turns = callTurns(calls);
    // each hour refresh timed (the job's turn)
    const slices: number[] = [];
    const refresh = calls.refreshRollupHour.bind(calls);
    calls.refreshRollupHour = ((projectId: string, hour: string) => {
      const t0 = performance.now();
      const out = refresh(projectId, hour);
      return Promise.resolve(out).then((v) => (slices.push(performance.now() - t0), v));
    }) as typeof calls.refreshRollupHour;
    const read = async (): Promise<number> => {
      const t0 = performance.now();
      const end = Date.now();
      await calls.overview({ projectId: PROJECT, startMs: end - 30 * DAY, endMs: end, edges: planBuckets(end - 30 * DAY, end, undefined, 'UTC').edges, groupBy: 'model' });
      return performance.now() - t0;
    };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    let done = false;
    const t0 = performance.now();
    const job = refreshStaleHours(calls, new Date(NOW + DAY)).finally(() => (done = true));
    const reads: number[] = [];
    const writes: number[] = [];
    const reader = (async () => {
      while (!done) {
        reads.push(await read());
        await new Promise((r) => setTimeout(r, EVERY));
      }
    })();
    const writer = (async () => {
      for (let i = 0; !done; i++) {
        const w0 = performance.now();
        await turns.run(() => store.upsertBatch(root(NOW - 2 * 3_600_000, i) as never));
        writes.push(performance.now() - w0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const hours = await job;
    const jobMs = performance.now() - t0;
    await Promise.all([reader, writer]);
    loop.disable();
    const after = [await read(), await read(), await read()];
    const line = (what: string, figure: string): string[] => [storeName, what, figure];
    const out = [
      line('roots; hours refreshed; job ms', `${ROOTS}; ${hours}; ${jobMs.toFixed(0)}`),
      line('one hour refresh (ms)', ms(slices)),
      line('event loop delay (ms)', `${(loop.max / 1e6).toFixed(0)} max, ${(loop.percentile(99) / 1e6).toFixed(0)} p99`),
      line('a write during catch-up (ms)', ms(writes)),
      line('overview by model, last 30 days, during (ms)', ms(reads)),
      line('the same after (ms)', ms(after)),
    ];
    rows.push(...out);
    console.log(out.map((r) => r.join(' · ')).join('\n'));
    await store.close();
  }
} finally {
  cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
printTable(`The overview's rollup job catching up over ${ROOTS.toLocaleString('en-US')} roots · ${contextLine()}`, ['store', 'what', 'figure'], rows);
