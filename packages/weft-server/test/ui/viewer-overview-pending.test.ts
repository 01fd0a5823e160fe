// @weft-test: postgres (the hours left out are the store's answer: the live bound differs by engine)
// The overview in Chromium while the server's rollup job catches up (issue 54): hours marked stale past the live bound
// are left out of the figures, and the page says how many ("3 hours of this window are still being counted"), asks
// again on its own, stops asking once left, and once the job has done those hours drops the notice and shows the full
// figures, without a reload.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { OVERVIEW_PENDING_HEADER } from '../../src/server/calls/overview-route.js';
import type { UpsertItem } from '../../src/server/calls/write/call-fields.js';
import { storeParts } from '../../src/server/server-store.js';
import { launchChromium, openCheckedPage } from './browser.js';

// the job runs once at start, then not again in this file unless asked (`runNow()`): the hours written stay stale; its
// live bound is small, so a few hundred roots pass it (the engines' default bound, 20,000 / 8,000 roots, would take
// seeding as many, and each ask of the page counting them)
const LIVE = 300;
const server = useTestServer({ rollups: { intervalMs: 86_400_000, liveRoots: LIVE } });
const project = uniqueProject('overview-pending');
const HOUR = 3_600_000;
let browser: Browser | undefined;
/** Roots of the newest stale hour: just under the live bound, so it is counted live and the 3 hours before it are not. */
let newest = 0;
const OLDER = 10;

/** `n` roots (starts only) in the hour starting at `hourMs`, a second apart. */
function rootsIn(hourMs: number, n: number): UpsertItem[] {
  return Array.from({ length: n }, (_, i) => ({
    mode: 'start',
    req: { start: { project_id: project, id: newId(), op_name: 'agent', started_at: new Date(hourMs + (i % 3600) * 1000).toISOString(), attributes: {}, inputs: {} } },
  }) as UpsertItem);
}

beforeAll(async () => {
  browser = await launchChromium();
  const { calls } = storeParts(server().store);
  await server().rollups!.runNow(); // the run at start is over: nothing refreshes the hours below until asked
  newest = LIVE - 5;
  // hour X (30 h ago, inside the 7-day window's 3-hour buckets) holds `newest` roots, hours X-1 to X-3 `OLDER` each
  const x = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR;
  const items = [...rootsIn(x, newest), ...[1, 2, 3].flatMap((k) => rootsIn(x - k * HOUR, OLDER))];
  for (let at = 0; at < items.length; at += 1000) await calls.upsertBatch(items.slice(at, at + 1000));
}, 120_000);
afterAll(() => browser?.close());

/** The page's asks of the overview so far, each with its pending-hours header. */
function overviewAsks(page: Page): (string | null)[] {
  const asks: (string | null)[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/weft/calls/overview')) asks.push(r.headers()[OVERVIEW_PENDING_HEADER] ?? null);
  });
  return asks;
}

it('says how many hours are still being counted, asks again, and shows the full figures once the job has done them', async () => {
  const url = server().url;
  const { page, problems } = await openCheckedPage(browser!, url);
  const asks = overviewAsks(page);
  const overview = `${url}/#/p/${encodeURIComponent(project)}/overview?window=7d`;
  const notice = page.locator('.ov-pending');
  const traces = page.locator('.ov-totals [data-total="calls"] .ov-value');
  await page.goto(overview);
  await notice.waitFor();
  expect(await notice.getAttribute('data-pending-hours')).toBe('3');
  expect(await notice.textContent()).toBe('3 hours of this window are still being counted: these figures may be low. Updating…');
  expect(await traces.textContent()).toBe(String(newest));
  expect(asks[0]).toBe('3');
  // it asks again on its own while hours are left out
  await expect.poll(() => asks.length, { timeout: 15_000 }).toBeGreaterThan(1);
  // a page left stops asking (the first wait is 2 s)
  await page.goto(`${url}/#/p/${encodeURIComponent(project)}`);
  await page.locator('.overview').waitFor({ state: 'detached' });
  const left = asks.length;
  await page.waitForTimeout(5_000);
  expect(asks.length).toBe(left);
  // back on the overview: still 3 hours out; the job does them (X-3 to X), and the next ask has them all
  await page.goto(overview);
  await notice.waitFor();
  await page.evaluate(() => { (globalThis as unknown as { sameDocument: boolean }).sameDocument = true; });
  expect(await server().rollups!.runNow()).toBe(4);
  await notice.waitFor({ state: 'detached', timeout: 30_000 });
  expect(await traces.textContent()).toBe(String(newest + 3 * OLDER));
  expect(asks.at(-1)).toBeNull();
  expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true); // no reload
  expect(problems).toEqual([]);
  await page.close();
}, 120_000);
