// The viewer at size, in Chromium against a real server behind a loopback proxy that holds answers back: each page
// says what it waits for before its data, draws a 10,000-call trace's first screen before the whole trace has arrived
// with a bounded number of rows in the DOM, fetches the list a page at a time as it scrolls, and shows its error in place.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/start-server.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { launchChromium, openCheckedPage } from './browser.js';
import { startStreamGate, type StreamGate } from './stream-gate.js';

const TRACE_PROJECT = 'local/big-trace';
const LIST_PROJECT = 'local/many-roots';
const TRACE_ID = '019a3c00-0000-7000-8000-00000000b16e';
const CALLS = 10_000;
const ROOTS = 250;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
/** A UUIDv7-shaped id from a number. */
const idOf = (n: number): string => `019a3c00-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

let server: RunningServer;
let gate: StreamGate;
let browser: Browser;

/** Sends start and end items of `calls` in batches of 1,000 calls. */
async function store(calls: { project_id: string; id: string; trace_id: string; parent_id?: string; op_name: string; ms: number }[]): Promise<void> {
  for (let i = 0; i < calls.length; i += 1000) {
    const batch = calls.slice(i, i + 1000).flatMap((c) => [
      { mode: 'start', req: { start: { project_id: c.project_id, id: c.id, trace_id: c.trace_id, ...(c.parent_id ? { parent_id: c.parent_id } : {}), op_name: c.op_name, started_at: at(c.ms), inputs: { n: c.ms }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: c.project_id, id: c.id, ended_at: at(c.ms + 4), output: 'ok', summary: {} } } },
    ]);
    const res = await fetch(`${server.url}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
    expect(res.status).toBe(200);
  }
}

beforeAll(async () => {
  server = await startTestServer();
  // the trace: a root, 99 steps, each with up to 99 tools (as bench/lib/ui-db.ts), in start order
  const big = [{ project_id: TRACE_PROJECT, id: TRACE_ID, trace_id: TRACE_ID, op_name: 'agent', ms: 0 }];
  for (let s = 0, n = 1; n < CALLS; s++) {
    const step = idOf(1_000_000 + n);
    big.push({ project_id: TRACE_PROJECT, id: step, trace_id: TRACE_ID, parent_id: TRACE_ID, op_name: 'step', ms: s * 600 + 1 } as never);
    n++;
    for (let g = 0; g < 99 && n < CALLS; g++, n++) big.push({ project_id: TRACE_PROJECT, id: idOf(2_000_000 + n), trace_id: TRACE_ID, parent_id: step, op_name: 'tool', ms: s * 600 + 2 + g * 5 } as never);
  }
  const roots = Array.from({ length: ROOTS }, (_, i) => ({ project_id: LIST_PROJECT, id: idOf(i + 1), trace_id: idOf(i + 1), op_name: `answer${i}`, ms: i * 10 }));
  await store([...big, ...roots]);
  gate = await startStreamGate(server.url);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gate?.close();
  await server?.close();
});

async function open(hash: string): Promise<{ page: Page; problems: string[] }> {
  const opened = await openCheckedPage(browser, gate.url);
  await opened.page.goto(`${gate.url}/${hash}`);
  return opened;
}

/** The status line's count: `loading 2,300 calls…` → 2300. */
const countIn = (text: string | null): number => Number(/loading ([\d,]+) /.exec(text ?? '')?.[1]?.replaceAll(',', '') ?? NaN);

describe('the viewer while it waits (Chromium, answers held back by a loopback proxy)', () => {
  it('draws the first rows of a 10,000-call trace and counts the calls before the whole trace has arrived; the DOM holds a screen of rows', async () => {
    // the whole tree's query passes 1,000 records, then waits
    gate.hold({ match: (b) => JSON.stringify(b['filter']).includes(TRACE_ID) && b['limit'] === undefined && Array.isArray(b['columns']), passLines: 1000 });
    const { page, problems } = await open(`#/p/${encodeURIComponent(TRACE_PROJECT)}/trace/${TRACE_ID}`);
    const status = page.locator('.page.trace > [data-load="loading"]');
    await expect.poll(async () => countIn(await status.textContent().catch(() => null)), { timeout: 30_000 }).toBeGreaterThanOrEqual(200);
    const rows = page.locator('.calls .crow[data-call]');
    await rows.first().waitFor();
    expect(await rows.first().locator('.cname').textContent()).toContain('agent');
    expect(countIn(await status.textContent())).toBeLessThan(CALLS); // still waiting for the rest
    const domRows = await rows.count();
    expect(domRows).toBeGreaterThan(10);
    expect(domRows).toBeLessThan(120);

    gate.release();
    await page.locator(`.tracehead [data-count="${CALLS}"]`).waitFor({ timeout: 30_000 });
    expect(await page.locator('.page.trace > [data-load]').count()).toBe(0);
    expect(await rows.count()).toBeLessThan(120); // 10,000 calls in the tree, a screen of them in the DOM
    // the tree read twice, no more: its first screen (a limit), then the whole of it (streamed, the count moving)
    const treeReads = gate.queries.filter((b) => JSON.stringify(b['filter']).includes(TRACE_ID) && (b['columns'] as string[] | undefined)?.includes('parent_id'));
    expect(treeReads.map((b) => b['limit'])).toEqual([200, undefined]);
    // scrolled to the end: the last tool, and still a screen of rows
    await page.locator('.calls').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await expect.poll(() => page.locator(`.calls .crow[data-call="${idOf(2_000_000 + CALLS - 1)}"]`).count()).toBe(1);
    expect(await rows.count()).toBeLessThan(120);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('says "loading traces…" before the list\'s first page, fetches the next page from a keyset cursor as it scrolls (saying so), and shows a failed read in place', async () => {
    const isList = (b: Record<string, unknown>): boolean => b['project_id'] === LIST_PROJECT;
    const cursorOf = (b: Record<string, unknown>): string | undefined => /"\$lte":\[\{"\$getField":"started_at"\},\{"\$literal":"([^"]+)"\}\]/.exec(JSON.stringify(b['query'] ?? null))?.[1];
    gate.hold({ match: (b) => isList(b) && cursorOf(b) === undefined });
    const { page, problems } = await open(`#/p/${encodeURIComponent(LIST_PROJECT)}`);
    const status = page.locator('.page [data-load="loading"]');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('loading traces…');
    expect(await page.locator('a.trow').count()).toBe(0);
    gate.release();
    await page.locator('a.trow').first().waitFor();
    expect(await page.locator('a.trow').first().getAttribute('data-trace')).toBe(idOf(ROOTS)); // newest first
    const pages = (): Record<string, unknown>[] => gate.queries.filter(isList);
    // one page asked for (the live poll asks for it again), a page long
    expect(pages().every((b) => cursorOf(b) === undefined && b['offset'] === 0 && b['limit'] === 100)).toBe(true);

    // scrolled to the bottom: the next page is asked for from the 100th root's start (not by an offset the server walks)
    // and said to be loading until it arrives
    gate.hold({ match: (b) => isList(b) && cursorOf(b) !== undefined });
    await page.locator('.tlist').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('loading more traces…');
    const second = pages().find((b) => cursorOf(b) !== undefined)!;
    expect(cursorOf(second)).toBe(at((ROOTS - 100) * 10)); // the 100th newest root's start
    expect(second['offset']).toBe(1); // that root itself, already read
    gate.release();
    await expect.poll(() => page.locator('.listhead').textContent(), { timeout: 30_000 }).toContain('200+ traces');
    expect(await page.locator('a.trow').count()).toBeLessThan(80); // 200 rows read, a screen of them in the DOM

    // the third page fails: the page says so where the rows would be
    gate.hold({ match: (b) => isList(b) && cursorOf(b) !== undefined, status: 500 });
    await page.locator('.tlist').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    const error = page.locator('.page [data-load="error"]');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toContain('could not load more traces: 500');
    gate.release();
    // the 200 rows read are the 200 newest, each once (the cursor neither skipped nor repeated one)
    await page.locator('.tlist').evaluate((el) => { el.scrollTop = el.scrollHeight - el.clientHeight - 34 * 3; });
    await expect.poll(() => page.locator(`a.trow[data-trace="${idOf(ROOTS - 199)}"]`).count(), { timeout: 30_000 }).toBe(1);
    expect(await page.locator('.listhead').textContent()).toContain('200+ traces');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows a failed trace read as an error line in the page, not a blank or a lasting "loading"', async () => {
    gate.hold({ match: (b) => JSON.stringify(b['filter']).includes(TRACE_ID), status: 503 });
    const { page } = await open(`#/p/${encodeURIComponent(TRACE_PROJECT)}/trace/${TRACE_ID}`);
    const error = page.locator('.page.trace > [data-load="error"]');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toBe('could not load calls: 503: held back by the test proxy');
    expect(await page.locator('.page.trace > [data-load="loading"]').count()).toBe(0);
    gate.release();
    await page.close();
  }, 60_000);
});
