// The trace viewer's speed in Chromium: first paint of the list over 100,000 roots (BENCH_UI_ROOTS), a 10,000-call trace opened, the overview of every root, the bundle gzipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../test/helpers/chromium.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';
import { BIG_TRACE_CALLS, BIG_TRACE_ID, UI_PROJECT, uiDatabase } from './lib/ui-db.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = Number(process.env.BENCH_UI_ROOTS) || 100_000;
const RUNS = QUICK ? 3 : 5;

// the page as `npm run build` makes it (dist/ui, where the server finds it)
await build({ configFile: join(ROOT, 'vite.ui.config.ts'), logLevel: 'warn' });
const assets = join(ROOT, 'packages', 'weft-server', 'dist', 'ui', 'assets');
const gz = readdirSync(assets).reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0)
  + gzipSync(readFileSync(join(ROOT, 'packages', 'weft-server', 'dist', 'ui', 'index.html'))).length;

const db = uiDatabase(ROOTS);
if (db.generatedSeconds !== undefined) console.log(`generated ${num(ROOTS)} roots + a ${num(BIG_TRACE_CALLS)}-call trace in ${num(db.generatedSeconds, 1)} s: ${db.path}\n`);
const server = await startChildServer(db.path);
const browser = await chromium.launch(await chromiumLaunchOptions());

/** ms for Node to fetch and read a stream_query answer in full: the baseline the page cannot beat. */
async function apiMs(body: object): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: UI_PROJECT, ...body }) });
  await res.text();
  return performance.now() - t0;
}

/** ms from navigation start to `selector` present, in a fresh page (no cache). */
async function pageMs(hash: string, selector: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/${hash}`);
    await page.locator(selector).first().waitFor({ timeout: 120_000 });
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

/** The columns the page's trace view asks for, with `include_costs` (ui/src/trace-view.tsx). */
const TREE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'summary'];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
/** One measured run after a warm-up, for the slow cases. */
async function once(f: () => Promise<number>): Promise<number> {
  await f();
  return f();
}

async function repeat(f: () => Promise<number>): Promise<number> {
  await f(); // warm the server's page cache and statement cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await f());
  return median(times);
}

try {
  const project = encodeURIComponent(UI_PROJECT);
  const listApi = await repeat(() => apiMs({ filter: { trace_roots_only: true }, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 100, offset: 0, include_feedback: true, include_costs: true }));
  const listPage = await repeat(() => pageMs(`#/p/${project}`, 'a.trow'));
  const traceApi = await repeat(() => apiMs({ filter: { trace_ids: [BIG_TRACE_ID] }, sort_by: [{ field: 'started_at', direction: 'asc' }], columns: TREE_COLUMNS, include_costs: true }));
  const tracePage = await repeat(() => pageMs(`#/p/${project}/trace/${BIG_TRACE_ID}`, '.detail h2'));
  // the overview over a window holding every root (the generated traces start on 2026-11-01): one run, no warm-up
  // (its SQL scans every root of the window); the page and the split only when the API answers within 30 s
  const overviewMs = async (groupBy?: string): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/weft/calls/overview`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: UI_PROJECT, start: new Date(Date.now() - 720 * 3_600_000).toISOString(), granularity: 43_200, group_by: groupBy }) });
    await res.text();
    return performance.now() - t0;
  };
  const overviewApi = await overviewMs();
  const overviewByModel = overviewApi < 30_000 ? await overviewMs('model') : NaN;
  const overviewPage = overviewApi < 30_000 ? await pageMs(`#/p/${project}/overview?window=30d`, '.ov-chart canvas').catch(() => NaN) : NaN;
  printTable(`trace viewer in Chromium (median of ${RUNS}, fresh page each) · ${contextLine()}`, ['case', 'page ms', 'baseline: API alone ms', 'page / API', 'target'], [
    [`list first paint, ${num(ROOTS)} roots stored`, num(listPage, 0), num(listApi, 1), ratio(listPage, listApi), verdict(listPage < 1000, '< 1 s')],
    [`trace of ${num(BIG_TRACE_CALLS)} calls opened (tree, waterfall, detail)`, num(tracePage, 0), num(traceApi, 1), ratio(tracePage, traceApi), verdict(tracePage < 1000, '< 1 s')],
    [`overview of the last 30 days, ${num(ROOTS)} roots in it`, Number.isNaN(overviewPage) ? (overviewApi < 30_000 ? 'no chart within 120 s' : 'not run (API > 30 s)') : num(overviewPage, 0), num(overviewApi, 1), ratio(overviewPage, overviewApi), verdict(overviewPage < 5000, '< 5 s')],
    [`overview split by model (API only), ${num(ROOTS)} roots`, '', Number.isNaN(overviewByModel) ? 'not run' : num(overviewByModel, 1), '', ''],
    ['bundle (JS + CSS + HTML), gzipped', `${num(gz / 1024, 1)} KB`, '', '', verdict(gz < 300 * 1024, '< 300 KB')],
  ]);
} finally {
  await browser.close();
  await server.close();
}
