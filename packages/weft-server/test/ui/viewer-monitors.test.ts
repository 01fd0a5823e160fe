// The overview in Chromium shows a monitor's scores over time: one chart per monitor, drawn from the feedback its
// pass stored (the server runs the pass; no wait on the loop's timer).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { MONITOR_PATHS } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { launchChromium, openCheckedPage } from './browser.js';

const server = useTestServer({ monitors: { intervalMs: 86_400_000, settleMs: 0 } });
const project = uniqueProject('monitors-ui');
let browser: Browser | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  const client = new Client({ baseUrl: server().url, maxRetries: 0 });
  const ago = Date.now() - 1_800_000;
  const items = Array.from({ length: 20 }, (_, i) => [
    { mode: 'start', req: { start: { project_id: project, id: `c${i}`, trace_id: `t${i}`, op_name: 'extract', started_at: new Date(ago + i * 1000).toISOString(), inputs: {}, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: project, id: `c${i}`, ended_at: new Date(ago + i * 1000 + 50).toISOString(), output: i % 2 ? '{"ok":1}' : 'nope', summary: {} } } },
  ]).flat();
  await client.calls.upsertBatch({ batch: items as never });
  await client.close();
  const res = await fetch(`${server().url}${MONITOR_PATHS.create}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project, op_name: 'extract', scorer: 'json_valid', sample_rate: 1 }),
  });
  expect(res.status).toBe(200);
  expect(await server().monitors!.runOnce()).toEqual({ read: 20, scored: 20 });
});
afterAll(() => browser?.close());

it("shows the monitor's chart on the overview", async () => {
  const url = server().url;
  const { page, problems } = await openCheckedPage(browser!, url);
  // the chart's data: the page's stats request for this monitor's feedback (its trigger_ref)
  const stats = page.waitForResponse((r) => r.url().endsWith('/feedback/stats') && (r.request().postData() ?? '').includes('weft_monitor:'));
  await page.goto(`${url}/#/p/${encodeURIComponent(project)}/overview`);
  const { window_stats } = (await (await stats).json()) as { window_stats: Record<string, { avg: number; count: number }> };
  expect(window_stats['output']).toEqual({ avg: 0.5, count: 20 }); // json_valid: every other output is JSON
  const chart = page.locator('[data-chart="monitor json_valid on extract (sample 1)"]');
  await chart.locator('canvas').waitFor();
  expect(await chart.locator('.u-legend').innerText()).toContain('avg output');
  expect(problems).toEqual([]);
  await page.close();
});
