// The playground in Chromium (issue 53 point 5), against loopback fakes of OpenAI and Anthropic (streamed answers):
// a prompt version opened, two variants (OpenAI, Anthropic) run side by side and streamed, each run recorded as a
// call marked `weft.playground` with the prompt's ref; both variants run over a three-row dataset, recorded as
// evaluation runs the compare page reads; a variant saved as a new prompt version; a provider without a key says
// which variable to set; a recorded call opened in the playground again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Dataset, publishPrompt } from 'weft-trace';
import { type FakeLlm, startFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { launchChromium, openCheckedPage, type ServeChild, serveChild, stopServe } from './browser.js';
import { query1 } from './viewer-agent.js';

const PROJECT = 'local/ui-playground';
const REPLY = streamedText(5);
/** The provider variables the server is started with; the Google key left unset. */
const PROVIDER_VARS = ['OPENAI_API_KEY', 'WEFT_PLAYGROUND_OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'WEFT_PLAYGROUND_ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];
let dir: string;
let url: string;
let fake: FakeLlm;
let browser: Browser | undefined;
let server: ServeChild | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-ui-playground-'));
  fake = await startFakeLlm();
  const saved = Object.fromEntries(PROVIDER_VARS.map((v) => [v, process.env[v]]));
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', WEFT_PLAYGROUND_OPENAI_BASE_URL: fake.openaiURL, ANTHROPIC_API_KEY: 'sk-ant-test', WEFT_PLAYGROUND_ANTHROPIC_BASE_URL: fake.anthropicURL });
  delete process.env['GEMINI_API_KEY'];
  delete process.env['GOOGLE_API_KEY'];
  try {
    [browser, url] = await Promise.all([launchChromium(), (server = serveChild(['--port', '0', '--db', path.join(dir, 'weft.db')])).viewerUrl]);
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
});

afterAll(async () => {
  await browser?.close();
  if (server) await stopServe(server);
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const shots = (): string => process.env['WEFT_UI_SHOTS'] ?? dir;
const column = (page: Page, name: string) => page.locator(`.pg-variant[data-variant="${name}"]`);

describe('the playground (in Chromium, loopback OpenAI and Anthropic)', () => {
  it('runs two variants of a prompt version side by side, streamed and recorded; over a dataset into the compare page; saves a version', async () => {
    const client = new Client({ baseUrl: url });
    const greet = await publishPrompt({ name: 'capital', model: 'gpt-4o-mini', params: { temperature: 0 }, messages: [{ role: 'system', content: 'Answer with the city only.' }, { role: 'user', content: 'The capital of {{country}}?' }] }, { client, project: PROJECT });
    await new Dataset({ name: 'capitals', rows: [{ country: 'France', expected: REPLY }, { country: 'Peru', expected: 'Lima' }, { country: 'Japan', expected: 'Tokyo' }] }).publish(client, PROJECT);

    const { page, problems } = await openCheckedPage(browser!, url, { width: 1500, height: 1000 });
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/playground?prompt=${encodeURIComponent(`capital:${greet.version!.digest}`)}`);
    const a = column(page, 'A');
    await a.waitFor();
    expect(await page.getByLabel('A model', { exact: true }).inputValue()).toBe('gpt-4o-mini');
    expect(await page.getByLabel('A message 2', { exact: true }).inputValue()).toBe('The capital of {{country}}?');
    await page.getByLabel('A variable country').fill('France');
    // a second variant: Anthropic
    await page.getByRole('button', { name: '+ variant' }).click();
    const b = column(page, 'B');
    await page.getByLabel('B provider').selectOption('anthropic');
    await page.getByLabel('B model', { exact: true }).fill('claude-haiku-4-5');
    await page.getByLabel('B parameters').fill('{"max_tokens": 64}');

    await page.getByRole('button', { name: 'Run A' }).click();
    await page.getByRole('button', { name: 'Run B' }).click();
    for (const col of [a, b]) {
      await col.locator('.pg-output[data-phase="done"]').waitFor();
      expect(await col.locator('.pg-output pre').textContent()).toBe(REPLY);
      expect(await col.locator('a.pg-trace').count()).toBe(1);
    }
    // both requests streamed, with the prompt's messages filled and each variant's settings
    const sent = fake.requests.filter((r) => r.body['stream'] === true);
    expect(sent.map((r) => r.path).sort()).toEqual(['/v1/chat/completions', '/v1/messages']);
    const anthropicBody = sent.find((r) => r.path === '/v1/messages')!.body;
    expect(anthropicBody).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 64, system: 'Answer with the city only.', messages: [{ role: 'user', content: 'The capital of France?' }] });
    // recorded: each run a call marked weft.playground, its model call carrying the prompt version's ref
    const all = await query1(url, PROJECT, { sort_by: [{ field: 'started_at', direction: 'asc' }] }) as unknown as { op_name: string; attributes: Record<string, unknown> }[];
    const marked = all.filter((c) => c.attributes['weft.playground'] === true);
    expect(marked.map((c) => c.op_name).sort()).toEqual(['anthropic.messages.create', 'openai.chat.completions.create', 'playground.run', 'playground.run']);
    for (const c of marked.filter((m) => m.op_name !== 'playground.run')) expect(c.attributes['weft.prompt.ref']).toBe(greet.version!.ref);

    // B saved as a new version of the prompt
    await b.getByRole('button', { name: 'Save as prompt version' }).click();
    await b.locator('a.pg-saved').waitFor();
    const { obj } = await client.objects.read({ project_id: PROJECT, object_id: 'capital', digest: 'latest' });
    expect(obj.version_index).toBe(1);
    expect(obj.val).toMatchObject({ model: 'claude-haiku-4-5', params: { max_tokens: 64 }, messages: [{ role: 'system', content: 'Answer with the city only.' }, { role: 'user', content: 'The capital of {{country}}?' }] });

    // both variants over the three-row dataset, exact match: recorded as evaluation runs, compared
    await page.getByLabel('A scorer exact_match').waitFor();
    await a.getByRole('button', { name: 'Run over dataset' }).click();
    await b.getByRole('button', { name: 'Run over dataset' }).click();
    for (const col of [a, b]) {
      await col.locator('a.pg-evaluation').waitFor({ timeout: 60_000 });
      expect(await col.locator('table.pg-rows tbody tr').count()).toBe(3);
    }
    await page.screenshot({ path: path.join(shots(), 'viewer-playground.png') });
    await page.locator('a.pg-compare').click();
    const compare = page.locator('.compare');
    await compare.waitFor();
    await expect.poll(() => compare.locator('table.rows tbody tr').count()).toBe(3);
    expect(await compare.locator('table.deltas tr[data-score="exact_match"] td').allTextContents()).toEqual(['exact_match', '0.333', '0.333 (0)']);
    expect(problems).toEqual([]);
  });

  it('says which variable to set for a provider without a key, and opens a recorded call in the playground', async () => {
    const { page, problems } = await openCheckedPage(browser!, url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/playground`);
    await page.getByLabel('A provider').selectOption('google');
    expect(await column(page, 'A').locator('[data-missing-key]').textContent()).toContain('GEMINI_API_KEY');
    await page.getByLabel('A model', { exact: true }).fill('gemini-2.5-flash');
    await page.getByLabel('A message 2', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Run A' }).click();
    await expect.poll(() => column(page, 'A').locator('.pg-output [role="alert"]').textContent()).toContain('set GEMINI_API_KEY or GOOGLE_API_KEY in the environment of the weft server');

    // a recorded model call opens in the playground with its model and messages
    const [call] = await query1(url, PROJECT, { filter: { op_names: ['openai.chat.completions.create'] }, limit: 1 });
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/trace/${call!.trace_id}/${call!.id}`);
    await page.locator('a.open-playground').click();
    await expect.poll(() => page.getByLabel('A model', { exact: true }).inputValue()).toBe('gpt-4o-mini');
    expect(await page.getByLabel('A message 2', { exact: true }).inputValue()).toMatch(/^The capital of \w+\?$/);
    expect(await page.locator('.playground .listhead').textContent()).toContain(`Opened from call ${call!.id}`);
    expect(problems).toEqual([]);
  });
});
