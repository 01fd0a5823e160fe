// The feedback rollup job catching up (issue 54, point 3), both stores: N feedback rows (BENCH_FBCATCHUP_ROWS, default
// 200,000) over BENCH_FBCATCHUP_DAYS (default 1: about 8,300 rows an hour) written through the store (every hour
// marked), then the job run to the end while a one-row feedback write is made every 50 ms: the job's slices (a read of
// 2,000 rows, then their fold: on SQLite, the event loop's longest delay is the longest slice or store), the writes'
// waits; next to one hour read and folded in one turn (the base of the ratio).
// `npx tsx --conditions=weft-source bench/feedback-catchup.ts`; BENCH_FBCATCHUP_STORES (default sqlite,postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStore } from '../packages/weft-server/src/server/store.js';
import { openPgStore } from '../packages/weft-server/src/server/pg-store.js';
import { storeParts } from '../packages/weft-server/src/server/server-store.js';
import { refreshStaleFeedbackHours } from '../packages/weft-server/src/server/feedback/feedback-rollup-job.js';
import { HourFold } from '../packages/weft-server/src/server/feedback/rollup-fold.js';
import type { FeedbackInput } from '../packages/weft-server/src/server/feedback/feedback-store.js';
import { contextLine } from './lib/context-line.js';
import { startBenchCluster } from './lib/pg-cluster.js';
import { printTable } from './lib/table.js';

const ROWS = Number(process.env.BENCH_FBCATCHUP_ROWS) || 200_000;
const DAYS = Number(process.env.BENCH_FBCATCHUP_DAYS) || 1;
const STORES = (process.env.BENCH_FBCATCHUP_STORES ?? 'sqlite,postgres').split(',');
const PROJECT = 'bench/fbcatchup';
const DAY = 86_400_000;
const NOW = Date.now();
const START = NOW - DAYS * DAY;

const item = (i: number): FeedbackInput => ({
  project_id: PROJECT, svc_ref: `svc:///${PROJECT}/call/${i.toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`,
  feedback_type: i % 10 === 0 ? 'thumbs' : 'score', payload: { score: (i % 100) / 100, passed: i % 3 !== 0, label: `grade_${i % 5}` },
});
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (xs: number[]): string => `${Math.max(...xs).toFixed(0)} max, ${median(xs).toFixed(0)} median, n=${xs.length}`;

const rows: string[][] = [];
console.log(contextLine());
const cluster = STORES.includes('postgres') ? startBenchCluster() : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'weft-fbcatchup-'));
try {
  for (const storeName of STORES) {
    const store = storeName === 'sqlite' ? openStore(join(tmp, 'fb.db')) : await openPgStore(await cluster!.freshDatabase());
    const feedback = storeParts(store).feedback;
    let n = 0;
    const clock = (): Date => new Date(START + Math.floor((n++ / ROWS) * DAYS * DAY));
    for (let at = 0; at < ROWS; at += 5_000) await feedback.createBatch(Array.from({ length: Math.min(5_000, ROWS - at) }, (_, k) => item(at + k)), clock);
    // each slice's read timed (the fold follows it in the same stretch)
    const reads: number[] = [];
    const read = feedback.rollupHourRows.bind(feedback);
    feedback.rollupHourRows = ((...args: Parameters<typeof read>) => {
      const t0 = performance.now();
      const out = read(...args);
      return out instanceof Promise ? out.then((v) => (reads.push(performance.now() - t0), v)) : (reads.push(performance.now() - t0), out);
    }) as typeof read;
    const loop = monitorEventLoopDelay({ resolution: 2 });
    loop.enable();
    let done = false;
    const t0 = performance.now();
    const job = refreshStaleFeedbackHours(feedback, new Date(NOW + DAY)).finally(() => (done = true));
    const writes: number[] = [];
    const writer = (async () => {
      for (let i = 0; !done; i++) {
        const w0 = performance.now();
        await feedback.createBatch([item(ROWS + i)]);
        writes.push(performance.now() - w0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const hours = await job;
    const jobMs = performance.now() - t0;
    await writer;
    loop.disable();
    feedback.rollupHourRows = read;
    // one hour read and folded in one turn, as a job without slices would
    const hour = new Date(START + Math.floor(DAYS * DAY / 2)).toISOString().slice(0, 13);
    const w0 = performance.now();
    const fold = new HourFold();
    for (const r of await read(PROJECT, hour, null, 1e9)) fold.add(r.feedback_type, JSON.parse(r.payload));
    fold.cells();
    const wholeMs = performance.now() - w0;
    const line = (what: string, figure: string): string[] => [storeName, what, figure];
    rows.push(
      line('rows; days; hours refreshed; job ms', `${ROWS}; ${DAYS}; ${hours}; ${jobMs.toFixed(0)}`),
      line('a slice\'s read, 2,000 rows (ms)', ms(reads)),
      line('event loop delay during (ms)', `${(loop.max / 1e6).toFixed(0)} max, ${(loop.percentile(99) / 1e6).toFixed(0)} p99`),
      line('a feedback write during catch-up (ms)', ms(writes)),
      line('one hour read and folded in one turn (ms; ratio)', `${wholeMs.toFixed(0)}; event loop max ${(loop.max / 1e6 / wholeMs).toFixed(2)}x`),
    );
    console.log(rows.filter((r) => r[0] === storeName).map((r) => r.join(' · ')).join('\n'));
    await store.close();
  }
} finally {
  cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
printTable(`The feedback rollup job catching up over ${ROWS.toLocaleString('en-US')} rows · ${contextLine()}`, ['store', 'what', 'figure'], rows);
