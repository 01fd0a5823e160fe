// Issue 39's viewer check for the set: each framework integration's example runs against one `weft serve`, and the
// viewer opens that framework's model call as chat in Chromium (the messages sent and the reply), as it does a
// wrapped client's. Mastra needs Node.js >= 22.13 (its own engines): on an older Node it is left out of the set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openCheckedPage, type ServeChild, serveChild, stopServe } from './browser.js';
import { query1 } from './viewer-agent.js';
import { runExample } from 'weft-test-kit/examples.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const mastraRuns = major > 22 || (major === 22 && minor >= 13);

/** Each framework's example, and the op of the model call its integration records. */
const SET = [
  { framework: 'LangChain', example: 'examples/langchain.ts', op: 'langchain.chat_model.OpenAIChat' },
  { framework: 'Google GenAI', example: 'examples/google-genai.ts', op: 'google_genai.models.generateContent' },
  { framework: 'OpenAI Agents', example: 'examples/openai-agents.ts', op: 'openai.agents.generation' },
  ...(mastraRuns ? [{ framework: 'Mastra', example: 'examples/mastra.ts', op: 'mastra.model_generation' }] : []),
];

let dir: string;
let url: string;
let browser: Browser | undefined;
let server: ServeChild | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-ui-frameworks-'));
  [browser, url] = await Promise.all([launchChromium(), (server = serveChild(['--port', '0', '--db', path.join(dir, 'weft.db')])).viewerUrl]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (server) await stopServe(server);
  rmSync(dir, { recursive: true, force: true });
});

it(`opens the model call of each framework integration as chat (${SET.map((s) => s.framework).join(', ')})`, async () => {
  const projects = SET.map((s) => `local/ui-${s.framework.toLowerCase().replace(/\s+/g, '-')}`);
  const runs = await Promise.all(SET.map((s, i) => runExample(s.example, [], { WEFT_BASE_URL: url, WEFT_PROJECT: projects[i], OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined, NODE_ENV: undefined })));
  runs.forEach((r, i) => expect(r.code, `${SET[i]!.example}: ${r.stderr}`).toBe(0));
  const { page, problems } = await openCheckedPage(browser!, url);
  for (const [i, s] of SET.entries()) {
    const [call] = await query1(url, projects[i]!, { filter: { op_names: [s.op] }, sort_by: [{ field: 'started_at', direction: 'asc' }], limit: 1 });
    expect(call, `${s.framework}: no ${s.op} call`).toBeDefined();
    await page.goto(`${url}/#/p/${encodeURIComponent(projects[i]!)}/trace/${call!.trace_id}/${call!.id}`);
    const chat = page.locator('.detail .chat');
    await chat.waitFor({ timeout: 15_000 });
    // the request's user message and the model's reply, as chat messages with text
    expect(await chat.locator('.chat-msg[data-role="user"]').count(), s.framework).toBeGreaterThan(0);
    expect((await chat.locator('.chat-msg.reply').first().textContent())?.trim(), s.framework).toBeTruthy();
  }
  expect(problems).toEqual([]);
}, 120_000);
