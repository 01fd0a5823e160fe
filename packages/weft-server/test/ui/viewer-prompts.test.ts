// @weft-test: postgres
// The Prompts page in Chromium (issue 53 point 4): a prompt's versions side by side, the diff of one from the one
// before, a label moved on the page (stored as setPromptLabel stores it, the move logged with who, when, from, to),
// and the calls made from each version with their latency, cost and feedback (read by `weft.prompt.ref`, a query on
// the run's store: SQLite, or PostgreSQL in the postgres project). Calls come from the real `openai`
// package wrapped with `wrapOpenAI` against the loopback fake API, their messages from `prompt.format()`.
import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { addFeedback, Client, flush, init, publishPrompt, readPromptLabels, setPromptLabel, wrapOpenAI } from 'weft-trace';
import { startFakeLlm } from 'weft-test-kit/fake-llm.js';
import { openCheckedPage, useViewerServer } from './browser.js';
import { query1 } from './viewer-agent.js';
import { testStore } from 'weft-test-kit/test-store.js';

const PROJECT = 'local/ui-prompts';
const viewer = useViewerServer('prompts');

const V0 = { name: 'support', model: 'gpt-4o-mini', params: { temperature: 0.2 }, messages: [{ role: 'system', content: 'You are a support agent.' }, { role: 'user', content: 'Help {{name}} with {{topic}}.' }] } as const;
const V1 = { ...V0, messages: [{ role: 'system', content: 'You are a kind support agent. Answer in two sentences.' }, V0.messages[1]] } as const;

describe(`the Prompts page (in Chromium, ${testStore()} store)`, () => {
  it('shows versions with their diff, moves a label (logged), and each version\'s calls with latency, cost and feedback', async () => {
    const { url, browser, shots } = viewer();
    const client = new Client({ baseUrl: url });
    const target = { client, project: PROJECT };
    const p0 = await publishPrompt(V0, target);
    const p1 = await publishPrompt(V1, target);
    await setPromptLabel('support', 'production', p0.version!.digest, { ...target, by: 'ada' });

    // calls made from each version: two from v0 (one gets a thumb down), one from v1 (a thumb up)
    const fake = await startFakeLlm();
    try {
      init({ project: PROJECT, baseUrl: url, flushIntervalMs: 50, printViewerLink: false });
      const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake.openaiURL, maxRetries: 0 }));
      const ask = (p: typeof p0 | typeof p1) => openai.chat.completions.create(p.toRequest<OpenAI.ChatCompletionCreateParamsNonStreaming>({ name: 'Ada', topic: 'billing' }));
      await ask(p0);
      await ask(p0);
      await ask(p1);
      await flush();
    } finally {
      await fake.close();
    }
    const calls = await query1(url, PROJECT, { filter: { op_names: ['openai.chat.completions.create'] }, sort_by: [{ field: 'started_at', direction: 'asc' }], include_costs: true });
    expect(calls).toHaveLength(3);
    await addFeedback(calls[0]!.id, { feedbackType: 'thumbs', payload: { up: false } });
    await addFeedback(calls[2]!.id, { feedbackType: 'thumbs', payload: { up: true } });
    await flush();

    const { page, problems } = await openCheckedPage(browser, url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/prompts`);
    await page.locator('.plist a[data-prompt="support"]').click();
    const versions = page.locator('table.versions');
    await versions.waitFor();
    // newest first: v1 (latest), v0 with the production label; calls, latency, cost, feedback per version
    expect(await versions.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-version')))).toEqual(['v1', 'v0']);
    const v0 = versions.locator('tr[data-version="v0"]');
    const v1 = versions.locator('tr[data-version="v1"]');
    await expect.poll(() => v0.locator('[data-col="calls"]').textContent()).toBe('2');
    expect(await v1.locator('[data-col="calls"]').textContent()).toBe('1');
    expect(await v0.locator('.plabel').allTextContents()).toEqual(['production']);
    expect(await v0.locator('[data-col="feedback"]').textContent()).toBe('▲ 0 ▼ 1');
    expect(await v1.locator('[data-col="feedback"]').textContent()).toBe('▲ 1 ▼ 0');
    expect(await v0.locator('[data-col="p50"]').textContent()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    expect(await v1.locator('[data-col="cost"]').textContent()).toMatch(/^\$\d/);

    // v1 picked (the latest): its diff from v0, the system line changed
    const diff = page.locator('.pdiff[data-ready="true"]');
    expect(await diff.getAttribute('data-diff')).toBe('v0..v1');
    expect(await diff.locator('.dl-del').allTextContents()).toEqual(['- You are a support agent.']);
    expect(await diff.locator('.dl-add').allTextContents()).toEqual(['+ You are a kind support agent. Answer in two sentences.']);
    // its calls: one, with latency, cost and its thumb
    const v1Calls = page.locator('table.pcalls[data-calls="v1"] tbody tr');
    await expect.poll(() => v1Calls.count()).toBe(1);
    expect(await v1Calls.first().locator('[data-col="feedback"]').textContent()).toBe('▲ 1');
    expect(await v1Calls.first().locator('[data-col="cost"]').textContent()).toMatch(/^\$\d/);

    // move production to v1 on the page, as "grace"
    await page.getByLabel('label', { exact: true }).fill('production');
    await page.getByLabel('to version').selectOption({ label: 'v1' });
    await page.getByLabel('moved by').fill('grace');
    await page.getByRole('button', { name: 'Move label' }).click();
    await expect.poll(() => v1.locator('.plabel').allTextContents()).toEqual(['production']);
    expect(await v0.locator('.plabel').count()).toBe(0);
    const moves = page.locator('table.moves tbody tr');
    expect(await moves.first().locator('td').allTextContents()).toEqual([expect.any(String), 'production', 'v0', 'v1', 'grace']);
    expect(await moves.nth(1).locator('td').allTextContents()).toEqual([expect.any(String), 'production', '(new)', 'v0', 'ada']);
    await page.screenshot({ path: path.join(shots, 'viewer-prompts.png') });
    // stored as the SDK stores it: the SDK reads the move
    const labels = await readPromptLabels(client, PROJECT, 'support');
    expect(labels.labels).toEqual({ production: p1.version!.digest });
    expect(labels.moves.map((m) => [m.label, m.from, m.to, m.by])).toEqual([['production', null, p0.version!.digest, 'ada'], ['production', p0.version!.digest, p1.version!.digest, 'grace']]);

    // v0 picked: its calls (two), the first version shown whole
    await v0.locator('button').click();
    await expect.poll(() => page.locator('table.pcalls[data-calls="v0"] tbody tr').count()).toBe(2);
    expect(problems).toEqual([]);
  });
});
