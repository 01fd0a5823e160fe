// The overview over many roots (issue 40, point 1), both stores: N roots (BENCH_OVERVIEW_ROOTS, default 100,000) over
// 30 days written through this tree's store (so every hour is marked), the rollup job run to the end, then
// `POST /weft/calls/overview` of the 30 days, aligned to the hour and cut inside its first and last hours (no split, by op, by model) answered by the server of a base build (before:
// every root read live) and of HEAD (after: hour rollups plus live edges), alternated in rounds; beside them HEAD's store
// counting every root live, and the floor: a raw indexed read of the window's rollup rows.
// `npx tsx bench/overview-rollups.ts <base rev> [<head rev>=HEAD]`; BENCH_OVERVIEW_ROUNDS (default 3), BENCH_OVERVIEW_STORES;
// BENCH_OVERVIEW_BEFORE=0 leaves out the base build and the live count (minutes a request at 1,000,000 roots): HEAD and
// the floor only. BENCH_OVERVIEW_PAGE=1: also the viewer's Overview page of the last 30 days (no split, by op, by
// model) drawn in Chromium by HEAD's server: ms from navigation to the frame that shows the totals and the five charts
// (the issue's "page drawn < 1 s"), beside the API alone in the same round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '../packages/test-kit/src/chromium.js';
import type { RunningServer, StartServerOptions } from '../packages/weft-server/src/server/index.js';
import { newId } from '../packages/weft-trace/src/internal/ids.js';
import { openStore } from '../packages/weft-server/src/server/store.js';
import { openPgStore } from '../packages/weft-server/src/server/pg-store.js';
import { storeParts } from '../packages/weft-server/src/server/server-store.js';
import { refreshStaleHours } from '../packages/weft-server/src/server/calls/jobs/rollup-job.js';
import { planBuckets } from '../packages/weft-server/src/server/stats/stats-buckets.js';
import { buildForBench } from './lib/build.js';
import { contextLine } from './lib/context-line.js';
import { buildUi, pageMarks } from './lib/page-marks.js';
import { median, startBenchCluster } from './lib/pg-cluster.js';
import { printTable } from './lib/table.js';

const ROOTS = Number(process.env.BENCH_OVERVIEW_ROOTS) || 100_000;
const ROUNDS = Number(process.env.BENCH_OVERVIEW_ROUNDS) || 3;
const STORES = (process.env.BENCH_OVERVIEW_STORES ?? 'sqlite,postgres').split(',');
const BEFORE = process.env.BENCH_OVERVIEW_BEFORE !== '0';
const PAGE = process.env.BENCH_OVERVIEW_PAGE === '1';
const [baseRev = 'main', headRev = 'HEAD'] = process.argv.slice(2);
const PROJECT = 'bench/overview';
const DAY = 86_400_000;
/** The window ends at the start of the current hour, so the page's "last 30 days" holds (nearly) every root. */
const END = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const START = END - 30 * DAY;
/** The windows asked: the 30 days aligned to the hour, and the same cut inside its first and last hours (an API caller's "last 30 days"). */
const WINDOWS = [['aligned', START, END], ['unaligned', START + 37 * 60_000 + 123, END - 23 * 60_000 - 456]] as const;
const MODELS = ['gpt-4o', 'claude-3-5-sonnet-20241022'];

type Starter = (o: StartServerOptions) => Promise<RunningServer>;
const load = async (rev: string): Promise<{ rev: string; dir: string; start: Starter }> => {
  const built = await buildForBench(rev, `overview-${rev.replace(/\W/g, '_')}`);
  return { rev, dir: built.dir, start: ((await import(`${built.dir}server/index.js`)) as { startServer: Starter }).startServer };
};
const builds = BEFORE ? [await load(baseRev), await load(headRev)] : [await load(headRev)];
// the page as `npm run build` makes it, beside HEAD's server build (where its server finds it: findUiDir)
let browser: Browser | undefined;
if (PAGE) {
  await buildUi(`${builds[builds.length - 1]!.dir}ui`);
  browser = await chromium.launch(await chromiumLaunchOptions());
}
/** The page's marks: the totals and all five charts drawn. */
const OVERVIEW_DRAWN = { drawn: `!!document.querySelector('[data-total=calls]') && document.querySelectorAll('.ov-body > .ov-charts [data-chart] canvas').length >= 5` };

/** Writes the roots through a store of this tree (one batch of 500 roots, start and end, at a time). */
async function seed(upsert: (items: unknown[]) => unknown): Promise<void> {
  for (let at = 0; at < ROOTS; at += 500) {
    const items: unknown[] = [];
    for (let i = at; i < Math.min(ROOTS, at + 500); i++) {
      const t = START + Math.floor((i / ROOTS) * 30 * DAY);
      const id = newId();
      const started_at = new Date(t).toISOString();
      items.push({ mode: 'start', req: { start: { project_id: PROJECT, id, trace_id: id, op_name: ['agent', 'search', 'plan'][i % 3], started_at, inputs: {}, attributes: {} } } });
      items.push({ mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: new Date(t + 50 + (i * 7919) % 20_000).toISOString(), summary: { status_counts: { success: 1, error: 0 }, usage: { [MODELS[i % 2]!]: { input_tokens: 100 + (i % 50), output_tokens: 20, requests: 1 } } }, ...(i % 37 === 0 ? { exception: 'boom' } : {}) } } });
    }
    await upsert(items);
  }
}

const time = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

/** One `POST /weft/calls/overview`, read whole; throws unless it answers 200. */
async function overview(url: string, body: string): Promise<void> {
  const res = await fetch(`${url}/weft/calls/overview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (res.status !== 200) throw new Error(`overview answered ${res.status}: ${await res.text()}`);
  await res.json();
}

const rows: string[][] = [];
console.log(contextLine());
const cluster = STORES.includes('postgres') ? startBenchCluster() : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'weft-overview-'));
try {
  for (const storeName of STORES) {
    const where = storeName === 'sqlite' ? { dbPath: join(tmp, 'calls.db') } : { db: await cluster!.freshDatabase() };
    const t0 = performance.now();
    const store = storeName === 'sqlite' ? openStore(where.dbPath!) : await openPgStore(where.db!);
    await seed((items) => store.upsertBatch(items as never));
    const seedMs = performance.now() - t0;
    const calls = storeParts(store).calls;
    const t1 = performance.now();
    const hours = await refreshStaleHours(calls, new Date(END + DAY));
    console.log(`${storeName}: ${ROOTS} roots written in ${(seedMs / 1000).toFixed(1)} s; the job refreshed ${hours} hours in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const servers = [];
    for (const b of builds) servers.push(await b.start({ port: 0, host: '127.0.0.1', apiKeys: [], log: () => {}, ...where }));
    const floorSql = 'SELECT hour, op_name, model, calls, errors, descendant_errors, histogram, usage FROM call_rollups WHERE project_id = $1 AND hour >= $2 AND hour <= $3';
    const floor = async (): Promise<unknown> => {
      const args = [PROJECT, new Date(START).toISOString().slice(0, 13), new Date(END).toISOString().slice(0, 13)];
      const { sqlite, pg: pgdb } = storeParts(store);
      if (sqlite) return sqlite.prepare(floorSql.replace(/\$\d/g, '?')).all(...args);
      return (await pgdb!.pool.query(floorSql, args)).rows;
    };
    for (const [window, wStart, wEnd] of WINDOWS) for (const groupBy of [null, 'op_name', 'model'] as const) {
      // ms[0] before, ms[1] after, ms[2] HEAD's store counting live, ms[3] the floor (without BEFORE: ms[1] and ms[3])
      const ms: number[][] = [[], [], [], []];
      const body = JSON.stringify({ project_id: PROJECT, start: new Date(wStart).toISOString(), end: new Date(wEnd).toISOString(), group_by: groupBy });
      for (let r = 0; r < ROUNDS; r++) {
        for (const [k, s] of servers.entries()) {
          ms[BEFORE ? k : 1]!.push(await time(() => overview(s.url, body)));
        }
        if (BEFORE) ms[2]!.push(await time(async () => calls.overview({ projectId: PROJECT, startMs: wStart, endMs: wEnd, edges: planBuckets(wStart, wEnd, undefined, 'UTC').edges, groupBy }, false)));
        ms[3]!.push(await time(floor));
      }
      const base = median(ms[BEFORE ? 0 : 3]!);
      const line = (name: string, xs: number[]): string[] => [storeName, `${String(groupBy)} ${window}`, name, median(xs).toFixed(1), `${(median(xs) / base).toFixed(3)}x`, xs.map((x) => x.toFixed(0)).join(' ')];
      const lines = [line(`after: ${headRev} (API, rollups)`, ms[1]!), line('floor: rollup rows read', ms[3]!)];
      if (BEFORE) lines.unshift(line(`before: ${baseRev} (API)`, ms[0]!)), lines.splice(2, 0, line(`${headRev}'s store, every root live`, ms[2]!));
      rows.push(...lines);
      console.log(lines.map((r) => r.join(' · ')).join('\n'));
    }
    if (browser) {
      // one warm-up, then ROUNDS fresh pages per split, each beside the API alone (the page's own request)
      const head = servers[servers.length - 1]!;
      for (const [split, by] of [['', null], ['op_name', 'op_name'], ['model', 'model']] as const) {
        const hash = `#/p/${encodeURIComponent(PROJECT)}/overview?window=30d${split ? `&by=${split}` : ''}`;
        const page: number[] = [];
        const api: number[] = [];
        const body = JSON.stringify({ project_id: PROJECT, start: new Date(Date.now() - 720 * 3_600_000).toISOString(), end: new Date().toISOString(), granularity: 43_200, group_by: by });
        for (let r = -1; r < ROUNDS; r++) {
          const drawn = (await pageMarks(browser, head.url, hash, OVERVIEW_DRAWN))['drawn']!;
          const alone = await time(() => overview(head.url, body));
          if (r >= 0) page.push(drawn), api.push(alone);
        }
        const lines = [
          [storeName, String(by), `page drawn: ${headRev}, last 30 days`, median(page).toFixed(1), `${(median(page) / median(api)).toFixed(3)}x`, page.map((x) => x.toFixed(0)).join(' ')],
          [storeName, String(by), '  its API alone (the page\'s request)', median(api).toFixed(1), '1.000x', api.map((x) => x.toFixed(0)).join(' ')],
        ];
        rows.push(...lines);
        console.log(lines.map((r) => r.join(' · ')).join('\n'));
      }
    }
    for (const s of servers) await s.close();
    await store.close();
  }
} finally {
  await browser?.close();
  cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
printTable(`POST /weft/calls/overview, ${ROOTS.toLocaleString('en-US')} roots over 30 days (ms, median of ${ROUNDS}; ratio to ${BEFORE ? 'before' : 'the floor'}; a page's to its API alone) · ${contextLine()}`,
  ['store', 'group_by', 'what', 'ms', 'ratio', 'rounds'], rows);
