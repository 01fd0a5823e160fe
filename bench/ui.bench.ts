// The trace viewer's speed in Chromium: first paint of the list over 100,000 roots (BENCH_UI_ROOTS), a 10,000-call trace opened (first rows, whole tree, the selected call's detail), the overview of every root, the bundle gzipped; with BENCH_BASE, that revision's page and server measured in the same rounds (head / base).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../packages/test-kit/src/chromium.js';
import { contextLine } from './lib/context-line.js';
import { buildUi, pageMarks as pageMarksIn, TRACE_MARKS } from './lib/page-marks.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';
import { BIG_TRACE_CALLS, BIG_TRACE_ID, UI_PROJECT, uiDatabase } from './lib/ui-db.js';
import { buildBaseUi } from './lib/ui-base.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = Number(process.env.BENCH_UI_ROOTS) || 100_000;
const RUNS = QUICK ? 3 : 5;

// the page as `npm run build` makes it (packages/weft-server/vite.config.ts), into `ui/` beside the server build under
// test (WEFT_BENCH_DIST, where that server finds it: `findUiDir`), else into packages/weft-server/dist/ui (src/ through tsx)
const uiOut = process.env.WEFT_BENCH_DIST ? join(process.env.WEFT_BENCH_DIST, 'ui') : join(ROOT, 'packages', 'weft-server', 'dist', 'ui');
await buildUi(uiOut);
const assets = join(uiOut, 'assets');
const gz = readdirSync(assets).reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0)
  + gzipSync(readFileSync(join(uiOut, 'index.html'))).length;

const db = uiDatabase(ROOTS);
if (db.generatedSeconds !== undefined) console.log(`generated ${num(ROOTS)} roots + a ${num(BIG_TRACE_CALLS)}-call trace in ${num(db.generatedSeconds, 1)} s: ${db.path}\n`);
// paired mode: the base revision's page, served by the base revision's server, over the same database file
const baseDist = process.env.WEFT_BENCH_BASE_DIST;
const baseRev = process.env.BENCH_BASE;
if (baseDist && baseRev) await buildBaseUi(baseRev, baseDist);
const server = await startChildServer(db.path);
const baseServer = baseDist && baseRev ? await startChildServer(db.path, baseDist) : undefined;
const browser = await chromium.launch(await chromiumLaunchOptions());
const pageMarks = (url: string, hash: string, marks: Record<string, string>): Promise<Record<string, number>> => pageMarksIn(browser, url, hash, marks);

/** ms for Node to fetch and read a stream_query answer in full: the baseline the page cannot beat. */
async function apiMs(body: object, url = server.url): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: UI_PROJECT, ...body }) });
  await res.text();
  return performance.now() - t0;
}

/** The columns the page's trace view asks for, with `include_costs` (packages/weft-server/src/ui/trace-view.tsx). */
const TREE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'summary'];
const LIST_QUERY = { filter: { trace_roots_only: true }, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 100, offset: 0, include_feedback: true, include_costs: true };
const TREE_QUERY = { filter: { trace_ids: [BIG_TRACE_ID] }, sort_by: [{ field: 'started_at', direction: 'asc' }], columns: TREE_COLUMNS, include_costs: true };
const DETAIL_QUERY = { filter: { call_ids: [BIG_TRACE_ID] }, include_feedback: true, include_costs: true };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const load1 = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** One case on one server: the page's marks and the API alone, each round. */
interface Side { url: string; list: number[]; trace: Record<string, number>[]; api: Record<string, number[]> }
const side = (url: string): Side => ({ url, list: [], trace: [], api: { list: [], tree: [], detail: [] } });

try {
  const project = encodeURIComponent(UI_PROJECT);
  const sides: Record<string, Side> = { head: side(server.url), ...(baseServer ? { base: side(baseServer.url) } : {}) };
  const loads: number[] = [];
  // a warm-up round (page cache, statement cache), then RUNS rounds; the sides alternate first within each round
  for (let round = -1; round < RUNS; round++) {
    const order = Object.values(sides);
    if (round % 2 === 1) order.reverse();
    for (const s of order) {
      const list = (await pageMarks(s.url, `#/p/${project}`, { list: `!!document.querySelector('a.trow')` }))['list']!;
      const trace = await pageMarks(s.url, `#/p/${project}/trace/${BIG_TRACE_ID}`, TRACE_MARKS);
      const api = { list: await apiMs(LIST_QUERY, s.url), tree: await apiMs(TREE_QUERY, s.url), detail: await apiMs(DETAIL_QUERY, s.url) };
      if (round < 0) continue;
      s.list.push(list);
      s.trace.push(trace);
      for (const [k, v] of Object.entries(api)) s.api[k]!.push(v);
    }
    if (round >= 0) loads.push(load1());
  }
  const m = (s: Side | undefined, pick: (s: Side) => number[]): number => (s ? median(pick(s)) : NaN);
  const { head, base } = sides as { head: Side; base?: Side };
  const traceMark = (k: string) => (s: Side): number[] => s.trace.map((t) => t[k]!);
  const rows: [string, (s: Side) => number[], string, (ms: number) => string][] = [
    [`list first paint, ${num(ROOTS)} roots stored`, (s) => s.list, 'list', (ms) => verdict(ms < 1000, '< 1 s')],
    [`trace of ${num(BIG_TRACE_CALLS)} calls: first rows drawn`, traceMark('rows'), 'tree', (ms) => verdict(ms < 1000, '< 1 s')],
    [`trace of ${num(BIG_TRACE_CALLS)} calls: whole tree read and drawn`, traceMark('whole'), 'tree', () => ''],
    [`trace of ${num(BIG_TRACE_CALLS)} calls: the selected call's detail drawn`, traceMark('detail'), 'detail', () => ''],
  ];
  const label = baseServer ? ` · base ${process.env.WEFT_BENCH_BASE_LABEL ?? baseRev}` : '';
  printTable(`trace viewer in Chromium (median of ${RUNS} rounds, fresh page each; load ${loads.map((l) => num(l, 1)).join(', ')})${label} · ${contextLine()}`,
    ['case', 'page ms', ...(base ? ['base page ms', 'page / base'] : []), 'API alone ms (its query)', ...(base ? ['base API ms'] : []), 'target'],
    rows.map(([name, pick, api, target]) => {
      const ms = m(head, pick);
      return [name, num(ms, 0), ...(base ? [num(m(base, pick), 0), ratio(ms, m(base, pick))] : []), `${num(m(head, (s) => s.api[api]!), 1)} (${api})`, ...(base ? [num(m(base, (s) => s.api[api]!), 1)] : []), target(ms)];
    }));
  // the overview over a window holding every root (the generated traces start on 2026-11-01): one run, no warm-up
  // (its SQL scans every root of the window); the page and the split only when the API answers within 30 s. Not in
  // paired mode (it is the aggregates' work, not the page's).
  if (!base) {
    const overviewMs = async (groupBy?: string): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/weft/calls/overview`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: UI_PROJECT, start: new Date(Date.now() - 720 * 3_600_000).toISOString(), granularity: 43_200, group_by: groupBy }) });
      await res.text();
      return performance.now() - t0;
    };
    const overviewApi = await overviewMs();
    const overviewByModel = overviewApi < 30_000 ? await overviewMs('model') : NaN;
    const overviewPage = overviewApi < 30_000 ? await pageMarks(server.url, `#/p/${project}/overview?window=30d`, { chart: `!!document.querySelector('.ov-chart canvas')` }).then((t) => t['chart']!, () => NaN) : NaN;
    printTable(`the overview · ${contextLine()}`, ['case', 'page ms', 'API alone ms', 'page / API', 'target'], [
      [`overview of the last 30 days, ${num(ROOTS)} roots in it`, Number.isNaN(overviewPage) ? (overviewApi < 30_000 ? 'no chart within 120 s' : 'not run (API > 30 s)') : num(overviewPage, 0), num(overviewApi, 1), ratio(overviewPage, overviewApi), verdict(overviewPage < 5000, '< 5 s')],
      [`overview split by model (API only), ${num(ROOTS)} roots`, '', Number.isNaN(overviewByModel) ? 'not run' : num(overviewByModel, 1), '', ''],
    ]);
  }
  printTable('bundle', ['what', 'size', 'target'], [['bundle (JS + CSS + HTML), gzipped', `${num(gz / 1024, 1)} KB`, verdict(gz < 300 * 1024, '< 300 KB')]]);
} finally {
  await browser.close();
  await server.close();
  await baseServer?.close();
}
