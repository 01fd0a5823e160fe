// The review screen in Chromium, by keyboard alone (issue 50): a queue of three model calls is reviewed with keys only
// (thumbs, a digit for the score, a letter for the category, Enter to submit, s to skip, k to go back and change an
// answer, then keep one item as a dataset row with a corrected expected output); the answers then show on the calls'
// feedback panel and count in /feedback/stats, and progress adds up.
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, Dataset } from 'weft-trace';
import type { AnnotationField, Queue } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { launchChromium, openCheckedPage } from './browser.js';

const server = useTestServer();
const project = uniqueProject('review-ui');
let browser: Browser | undefined;
let quality: AnnotationField;

const post = async <T>(path: string, body: unknown): Promise<T> => {
  const res = await fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  browser = await launchChromium();
  const client = new Client({ baseUrl: server().url, maxRetries: 0 });
  const ago = Date.now() - 600_000;
  await client.calls.upsertBatch({
    batch: [0, 1, 2].flatMap((i) => [
      { mode: 'start', req: { start: { project_id: project, id: `m${i}`, trace_id: `t${i}`, op_name: 'openai.chat.completions.create', started_at: new Date(ago + i * 1000).toISOString(),
        inputs: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `question number ${i}` }] }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: project, id: `m${i}`, ended_at: new Date(ago + i * 1000 + 50).toISOString(),
        output: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `answer number ${i}` } }] }, summary: {} } } },
    ]) as never,
  });
  await client.close();
  const field = (body: Record<string, unknown>) => post<AnnotationField>('/weft/annotation_fields/create', { project_id: project, ...body });
  const helpful = await field({ name: 'helpful', type: 'thumbs', description: 'Did the answer help?' });
  quality = await field({ name: 'quality', type: 'score', min: 1, max: 5, step: 1, description: '1 poor, 5 great' });
  const tone = await field({ name: 'tone', type: 'category', labels: ['formal', 'casual', 'rude'] });
  const queue = await post<Queue>('/weft/queues/create', { project_id: project, name: 'kb', instructions: 'Read the answer, then rate it.', fields: [helpful.ref, quality.ref, tone.ref] });
  await post('/weft/queues/add', { project_id: project, queue_id: queue.id, items: [0, 1, 2].map((i) => ({ call_id: `m${i}` })) });
});
afterAll(() => browser?.close());

/** Presses keys, then (when `done` is given) waits for that response of the review routes and the screen showing another item or state. */
async function keys(page: Page, list: string[], done?: string): Promise<void> {
  const answered = done ? page.waitForResponse((r) => r.url().endsWith(done) && r.status() === 200) : undefined;
  for (const k of list) await page.keyboard.press(k);
  if (answered) await answered;
}

it('reviews a queue by keyboard alone; the answers show on the calls and in feedback stats', async () => {
  const url = server().url;
  const { page, problems } = await openCheckedPage(browser!, url);
  page.setDefaultTimeout(8000);
  await page.addInitScript(() => localStorage.setItem('weft.viewer.creator', 'kim'));
  await page.goto(`${url}/#/p/${encodeURIComponent(project)}/queues/kb`);
  const item = page.locator('.rv-item-view');
  await item.locator('.chat-section').waitFor();
  expect(await page.locator('.rv-instructions').innerText()).toBe('Read the answer, then rate it.');
  expect(await item.getAttribute('data-item')).toBeTruthy();
  expect(await item.innerText()).toContain('answer number 0');
  expect(await item.locator('a', { hasText: 'open its trace' }).getAttribute('href')).toBe(`#/p/${encodeURIComponent(project)}/trace/t0/m0`);

  // item 1: thumbs up, 4, formal; item 2: thumbs down, 2, casual; item 3: skipped
  await keys(page, ['u', '4', 'f'], undefined);
  expect(await page.locator('[data-field="quality"] button[aria-pressed="true"]').innerText()).toContain('4');
  await page.screenshot({ path: path.join(process.env['WEFT_UI_SHOTS'] ?? os.tmpdir(), 'viewer-review.png') }); // WEFT_UI_SHOTS=docs makes docs/viewer-review.png
  await keys(page, ['Enter'], '/weft/queues/answer');
  await page.locator('.rv-call[data-call="m1"]').waitFor();
  await keys(page, ['d', '2', 'c', 'Enter'], '/weft/queues/answer');
  await page.locator('.rv-call[data-call="m2"]').waitFor();
  await keys(page, ['s'], '/weft/queues/skip');
  await page.locator('.rv-empty').waitFor();
  await page.locator('.rv-progress[data-progress="3/3"]').waitFor();

  // back to the second item: its answers are there; change the score to 5 and submit again
  await keys(page, ['k', 'k']);
  await page.locator('.rv-call[data-call="m1"]').waitFor();
  await page.locator('[data-field="quality"] button[aria-pressed="true"]', { hasText: '2' }).waitFor();
  await keys(page, ['5', 'Enter'], '/weft/queues/answer');
  await page.locator('.rv-feedback .fb-list li', { hasText: 'wandb.annotation.quality' }).filter({ hasText: '5' }).waitFor();
  expect(await page.locator('.rv-feedback .fb-list li', { hasText: 'wandb.annotation.quality' }).count()).toBe(1);

  // the item kept as a dataset row, its expected output corrected first: the call's inputs and the correction
  await page.locator('.rv-side .add-ds button').click();
  await page.getByLabel('dataset name').fill('reviewed');
  expect(await page.getByLabel('expected output 1').inputValue()).toContain('answer number 1');
  await page.getByLabel('expected output 1').fill('"a better answer"');
  await page.getByRole('button', { name: 'Add call' }).click();
  await expect.poll(() => page.locator('.rv-side .ds-added').textContent()).toBe('added to reviewed as v0 (1 rows)');
  const reader = new Client({ baseUrl: url, maxRetries: 0 });
  const kept = await Dataset.load(reader, `weave:///${project}/object/reviewed:latest`);
  await reader.close();
  expect(kept.rows).toEqual([{ input: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'question number 1' }] }, expected: 'a better answer', source_call: `svc:///${project}/call/m1` }]);

  // the answers on the call's feedback panel in the trace view
  await page.goto(`${url}/#/p/${encodeURIComponent(project)}/trace/t0/m0`);
  const panel = page.locator('.feedback-panel');
  await panel.locator('li', { hasText: 'wandb.annotation.tone' }).waitFor();
  const text = await panel.innerText();
  expect(text).toContain('wandb.annotation.quality');
  expect(text).toContain('wandb.annotation.helpful');
  expect(text).toContain('formal');

  const stats = await post<{ window_stats: Record<string, Record<string, number>> }>('/feedback/stats', {
    project_id: project, start: new Date(Date.now() - 3_600_000).toISOString(), feedback_type: 'wandb.annotation.quality',
    metrics: [{ json_path: 'value', value_type: 'numeric', aggregations: ['count', 'avg'] }],
  });
  expect(stats.window_stats['value']).toEqual({ count: 2, avg: 4.5 });
  const { progress } = await post<{ progress: { done: number; skipped: number; reviewers: Record<string, unknown> } }>('/weft/queues/read', { project_id: project, queue_id: 'kb' });
  expect(progress).toMatchObject({ done: 2, skipped: 1, reviewers: { kim: { done: 2, skipped: 1 } } });
  expect(quality.ref).toContain('/object/quality:');
  expect(problems).toEqual([]);
  await page.close();
});
