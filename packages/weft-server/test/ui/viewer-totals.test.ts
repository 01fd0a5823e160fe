// The trace header in Chromium for a trace two processes sent (a `weft serve` child): its tokens and cost count the other process's model call, as the root's stored summary does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openCheckedPage, type ServeChild, serveChild, stopServe } from './browser.js';
import type { CallRecord } from 'weft-trace';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import type { Json } from 'weft-test-kit/server-http.js';
import { TRACE, twoProcessItems } from 'weft-test-kit/two-process-trace.js';

let dir: string;
let url: string;
let browser: Browser | undefined;
let server: ServeChild | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-ui-totals-'));
  [browser, url] = await Promise.all([launchChromium(), (server = serveChild(['--port', '0', '--db', path.join(dir, 'weft.db')])).viewerUrl]);
});

afterAll(async () => {
  await browser?.close();
  if (server) await stopServe(server);
  rmSync(dir, { recursive: true, force: true });
});

async function send(items: Json[]): Promise<void> {
  const res = await fetch(`${url}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ batch: items }) });
  expect(res.status).toBe(200);
}

it('the trace header reads the tokens and cost of a model call another process sent, from the root\'s summary', async () => {
  const project = uniqueProject('ui-xproc');
  const { aStarts, aEnds, b } = twoProcessItems(project);
  await send([...aStarts, ...aEnds]); // the client process's calls, its root ended
  await send(b); // then the tool's process: its handler and model call
  const calls = await readCalls(url, project, { include_costs: true });
  const root = calls.find((c) => c.id === TRACE) as CallRecord;
  const usd = Object.values(root.summary?.costs ?? {}).reduce((s, c) => s + (c.total_cost ?? 0), 0);
  expect(usd).toBeGreaterThan(0);
  const { page, problems } = await openCheckedPage(browser!, url);
  await page.goto(`${url}/#/p/${encodeURIComponent(project)}/trace/${TRACE}`);
  await page.locator('.tracehead [data-count="4"]').waitFor();
  // ui/format.ts `usd`: six decimals under a cent
  expect(await page.locator('.tracehead .trace-totals').textContent()).toBe(`25 tokens · $${usd.toFixed(6)}`);
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
