// The viewer at 1,280 px in Chromium (issue 48 point 5): a LangGraph-like trace nested 10 deep shows each model call's
// tag, model, tokens and cost unclipped in the tree (its call column resizable); a tool result answered by id names its tool; the traces list shows
// status and start time whole; the overview's cost axis labels lie inside the chart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/start-server.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { launchChromium, openCheckedPage } from './browser.js';
import { DEEP_MODEL, type DeepTrace, storeDeepTrace, TOOL_CALL } from './deep-trace.js';

const PROJECT = 'local/deep-graph';
const VIEWPORT = { width: 1280, height: 800 };

let server: RunningServer;
let browser: Browser;
let trace: DeepTrace;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-ui-narrow-'));
  server = await startTestServer();
  trace = await storeDeepTrace(server.url, PROJECT);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Where screenshots go: the test's temp dir, or `WEFT_UI_SHOTS`. */
const shots = (): string => process.env['WEFT_UI_SHOTS'] ?? dir;

/**
 * What is clipped of the elements matching `selector`, each inside its closest `within` ancestor: every element found
 * and each of its descendants must show all of its content (scrollWidth <= clientWidth) and lie inside that ancestor's
 * box. Answers one line per element clipped, with its text.
 */
function clippedIn(page: Page, selector: string, within: string): Promise<string[]> {
  return page.evaluate(([sel, anc]) => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll(sel))) {
      const box = el.closest(anc)!.getBoundingClientRect();
      for (const e of [el, ...Array.from(el.querySelectorAll('*'))]) {
        const r = e.getBoundingClientRect();
        if (e.scrollWidth > e.clientWidth + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5) {
          out.push(`${e.className} "${e.textContent}": scroll ${e.scrollWidth} > client ${e.clientWidth}, or [${r.left}, ${r.right}] outside [${box.left}, ${box.right}]`);
        }
      }
    }
    return out;
  }, [selector, within] as const);
}

it('shows each nested model call\'s tag, model, tokens and cost whole in the tree, and names a tool answered by id', async () => {
  const { page, problems } = await openCheckedPage(browser, server.url, VIEWPORT);
  await page.goto(`${server.url}/#/p/${encodeURIComponent(PROJECT)}/trace/${trace.traceId}`);
  const tags = page.locator('.calls .cmeta[data-llm]');
  await expect.poll(() => tags.count()).toBe(trace.modelCallIds.length);
  await page.screenshot({ path: path.join(shots(), 'trace-deep-1280.png') });
  expect(await clippedIn(page, '.calls .cmeta', '.ctree')).toEqual([]);
  for (const id of trace.modelCallIds) {
    const meta = page.locator(`.calls .crow[data-call="${id}"] .cmeta[data-llm]`);
    expect(await meta.textContent()).toMatch(new RegExp(`^LLM ${DEEP_MODEL} · 25 tok · \\$0\\.0000\\d\\d$`));
  }
  // the call column resized by its handle: the deepest call's name, cut to make room for its tag, then reads whole
  const deepest = page.locator(`.calls .crow[data-call="${trace.modelCallIds.at(-1)}"] .cname`);
  const whole = (): Promise<boolean> => deepest.evaluate((e) => e.scrollWidth <= e.clientWidth);
  expect(await whole()).toBe(false);
  const handle = await page.getByRole('separator', { name: 'resize the call column' }).boundingBox();
  await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle!.x + 240, handle!.y + handle!.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(whole).toBe(true);
  expect(await clippedIn(page, '.calls .cmeta', '.ctree')).toEqual([]);
  await page.screenshot({ path: path.join(shots(), 'trace-deep-1280-resized.png') });
  // the model call whose request answers the tool call by id only: the result is named after the call it answers
  await page.goto(`${server.url}/#/p/${encodeURIComponent(PROJECT)}/trace/${trace.traceId}/${trace.toolAnswerCallId}`);
  const result = page.locator('.detail .chat .chat-tool-result');
  await result.waitFor();
  expect(await result.locator('.chat-tool-name').textContent()).toBe(TOOL_CALL.name);
  expect(problems).toEqual([]);
  await page.close();
});

it('shows the traces list\'s status and start time whole', async () => {
  const { page, problems } = await openCheckedPage(browser, server.url, VIEWPORT);
  await page.goto(`${server.url}/#/p/${encodeURIComponent(PROJECT)}`);
  await expect.poll(() => page.locator('a.trow').count()).toBe(3);
  await page.screenshot({ path: path.join(shots(), 'list-1280.png') });
  expect(await page.locator('a.trow .status').first().textContent()).toBe('⚠ descendant error');
  expect(await clippedIn(page, 'a.trow .status, a.trow .when, a.trow .num', '.vbox')).toEqual([]);
  expect(problems).toEqual([]);
  await page.close();
});

it('draws the overview\'s cost axis labels inside the chart, tiny costs written out', async () => {
  const { page, problems } = await openCheckedPage(browser, server.url, VIEWPORT);
  // every text uPlot draws on a canvas, with its left edge in CSS pixels of that canvas
  await page.addInitScript(() => {
    const fill = CanvasRenderingContext2D.prototype.fillText;
    const drawn: { canvas: HTMLCanvasElement; text: string; left: number }[] = [];
    (window as unknown as { drawnTexts: typeof drawn }).drawnTexts = drawn;
    CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) {
      const w = this.measureText(text).width;
      const a = this.textAlign;
      const left = a === 'right' || a === 'end' ? x - w : a === 'center' ? x - w / 2 : x;
      const t = this.getTransform();
      drawn.push({ canvas: this.canvas as HTMLCanvasElement, text, left: (t.a * left + t.e) / (this.canvas.width / (this.canvas as HTMLCanvasElement).clientWidth) });
      return maxWidth === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, maxWidth);
    };
  });
  await page.goto(`${server.url}/#/p/${encodeURIComponent(PROJECT)}/overview`);
  const chart = page.locator('.ov-chart[data-chart="cost (USD)"] canvas');
  await chart.waitFor();
  const labels = await page.evaluate(() => {
    const canvas = document.querySelector('.ov-chart[data-chart="cost (USD)"] canvas');
    return (window as unknown as { drawnTexts: { canvas: Element; text: string; left: number }[] }).drawnTexts.filter((d) => d.canvas === canvas).map(({ text, left }) => ({ text, left }));
  });
  await page.screenshot({ path: path.join(shots(), 'overview-1280.png') });
  await page.locator('.ov-chart[data-chart="cost (USD)"]').screenshot({ path: path.join(shots(), 'overview-cost-1280.png') });
  const costLabels = labels.filter((l) => l.text.startsWith('$'));
  expect(costLabels.length).toBeGreaterThan(1);
  expect(labels.filter((l) => l.left < 0)).toEqual([]);
  // one style per axis: dollars, no exponent, the same number of decimals, and a nonzero tick reads as nonzero
  expect(costLabels.every((l) => /^\$\d+(\.\d+)?$/.test(l.text))).toBe(true);
  expect(new Set(costLabels.filter((l) => l.text !== '$0').map((l) => l.text.split('.')[1]?.length)).size).toBe(1);
  expect(problems).toEqual([]);
  await page.close();
});
