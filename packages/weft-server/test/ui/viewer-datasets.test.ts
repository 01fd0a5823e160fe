// Issue 50 point 4 in Chromium: a call added to a dataset from its detail, then a 2-call selection of the traces list
// (one expected output corrected first), then a correction of the first call again; the Datasets page lists the
// dataset and its three versions, the rows link to their source calls, and two versions are compared.
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, Dataset } from 'weft-trace';
import { newId } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { launchChromium, openCheckedPage } from './browser.js';

const server = useTestServer();
const project = uniqueProject('datasets-ui');
const COUNTRIES = [['France', 'Paris'], ['Italy', 'Rome'], ['Peru', 'Cusco']] as const;
const ids = COUNTRIES.map(() => ({ call: newId(), trace: newId() }));
let browser: Browser | undefined;
let client: Client;

beforeAll(async () => {
  browser = await launchChromium();
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  const at = Date.now() - 60_000;
  const items = COUNTRIES.flatMap(([country, city], i) => [
    { mode: 'start', req: { start: { project_id: project, id: ids[i]!.call, trace_id: ids[i]!.trace, op_name: 'capital', started_at: new Date(at + i * 1000).toISOString(), inputs: { country }, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: project, id: ids[i]!.call, ended_at: new Date(at + i * 1000 + 40).toISOString(), output: city, summary: {} } } },
  ]);
  await client.calls.upsertBatch({ batch: items as never });
});
afterAll(async () => {
  await client?.close();
  await browser?.close();
});

it('adds a call and a 2-call selection to a dataset, then lists its versions, rows linking to their calls, and a diff', async () => {
  const url = server().url;
  const { page, problems } = await openCheckedPage(browser!, url);
  const p = encodeURIComponent(project);

  // 1. one call, from its detail: v0
  await page.goto(`${url}/#/p/${p}/trace/${ids[0]!.trace}/${ids[0]!.call}`);
  await page.locator(`.detail[data-call="${ids[0]!.call}"] .add-ds button`).click();
  await page.getByLabel('dataset name').fill('golden');
  expect(await page.getByLabel('expected output 1').inputValue()).toBe('"Paris"');
  await page.getByRole('button', { name: 'Add call' }).click();
  await expect.poll(() => page.locator('.detail .ds-added').textContent()).toBe('added to golden as v0 (1 rows)');

  // 2. a selection of two traces in the list, Peru's expected output corrected: v1
  await page.goto(`${url}/#/p/${p}`);
  await page.locator(`a.trow[data-trace="${ids[1]!.trace}"] input[type=checkbox]`).check();
  await page.locator(`a.trow[data-trace="${ids[2]!.trace}"] input[type=checkbox]`).check();
  expect(page.url()).toBe(`${url}/#/p/${p}`); // the checkboxes select; they do not follow the row's link
  await expect.poll(() => page.locator('.selbar > span').first().textContent()).toBe('2 selected');
  await page.locator('.selbar .add-ds button').click();
  await page.getByLabel('dataset name').fill('golden');
  await page.getByLabel('expected output 2').fill('"Lima"');
  await page.getByRole('button', { name: 'Add 2 calls' }).click();
  await expect.poll(() => page.locator('.selbar .ds-added').textContent()).toBe('added to golden as v1 (3 rows)');

  // 3. France corrected from its detail: v2 (its row replaced)
  await page.goto(`${url}/#/p/${p}/trace/${ids[0]!.trace}/${ids[0]!.call}`);
  await page.locator(`.detail[data-call="${ids[0]!.call}"] .add-ds button`).click();
  await page.getByLabel('dataset name').fill('golden');
  await page.getByLabel('expected output 1').fill('{"city": "Paris", "note": "capital"}');
  await page.getByRole('button', { name: 'Add call' }).click();
  await expect.poll(() => page.locator('.detail .ds-added').textContent()).toBe('added to golden as v2 (3 rows)');

  // what the server stored: the SDK's dataset format, rows keeping their source calls
  const stored = await Dataset.load(client, `weave:///${project}/object/golden:latest`);
  expect(stored.rows).toEqual([
    { input: { country: 'France' }, expected: { city: 'Paris', note: 'capital' }, source_call: `svc:///${project}/call/${ids[0]!.call}` },
    { input: { country: 'Italy' }, expected: 'Rome', source_call: `svc:///${project}/call/${ids[1]!.call}` },
    { input: { country: 'Peru' }, expected: 'Lima', source_call: `svc:///${project}/call/${ids[2]!.call}` },
  ]);

  // 4. the Datasets page: the list, the versions, the rows with links to their calls
  await page.locator('header a', { hasText: 'datasets' }).click();
  const listed = page.locator('tr[data-dataset="golden"]');
  await listed.waitFor();
  expect(await listed.locator('td.num').textContent()).toBe('3');
  await listed.locator('a').click();
  await page.locator('.ds-versions tr[data-version]').nth(2).waitFor();
  expect(await page.locator('.ds-versions tr[data-version] td:first-child a').allTextContents()).toEqual(['v0', 'v1', 'v2']);
  await page.locator('.ds-detail > .ds-rows tr[data-row]').nth(2).waitFor();
  const links = page.locator('.ds-detail > .ds-rows a.source-call');
  expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('data-call')))).toEqual(ids.map((i) => i.call));
  expect(await page.locator('.ds-detail > .ds-rows tr[data-row="2"] .ds-exp').textContent()).toBe('Lima');
  expect(await page.locator('.ds-detail > .ds-rows tr[data-row="0"] .ds-exp').textContent()).toBe('{"city":"Paris","note":"capital"}');

  // 5. the difference between v0 and v2: Italy and Peru added, France changed
  await page.getByLabel('base version').selectOption('0');
  await page.getByLabel('compared version').selectOption('2');
  await page.getByRole('button', { name: 'Compare' }).click();
  const diff = page.locator('.ds-diff');
  await diff.waitFor();
  expect(await diff.locator('h3').textContent()).toBe('v0 → v2: 2 added, 0 removed, 1 changed, 0 the same');
  expect(await diff.locator('.ds-changed-row del').textContent()).toBe('"Paris"');
  expect(await diff.locator('.ds-changed-row ins').textContent()).toBe('{"city":"Paris","note":"capital"}');
  expect(page.url()).toContain('/datasets/golden?v=2&base=0');
  await page.screenshot({ path: path.join(process.env['WEFT_UI_SHOTS'] ?? os.tmpdir(), 'viewer-datasets.png'), fullPage: true }); // WEFT_UI_SHOTS=docs makes docs/viewer-datasets.png

  // 6. a row's link opens its source call in the trace view
  await links.nth(1).click();
  await page.locator(`.detail[data-call="${ids[1]!.call}"]`).waitFor();
  expect(problems).toEqual([]);
  await page.close();
});
