// The trace viewer in a real browser: the quickstart's program traced into a real `weft serve`, then read in Chromium.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openCheckedPage, type ServeChild, serveChild, stopServe } from './browser.js';
import { runExampleOk } from 'weft-test-kit/examples.js';
import { evaluate, exactMatch, flush, init, shutdown } from 'weft-trace';

const PROJECT = 'local/ui-test';
const FAILING = 'What is the airspeed velocity of an unladen swallow?';

let dir: string;
/** The first test's server (keyless), holding the demo's traces. */
let url: string;
let browser: Browser | undefined;
const servers: ServeChild[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-ui-'));
  browser = await launchChromium();
  const server = serveChild(['--port', '0', '--db', path.join(dir, 'weft.db')]);
  servers.push(server);
  url = await server.viewerUrl;
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map(stopServe));
  rmSync(dir, { recursive: true, force: true });
});

/** Where screenshots go: the test's temp dir, or `WEFT_UI_SHOTS` (how docs/*.png are made). */
const shots = (): string => process.env['WEFT_UI_SHOTS'] ?? dir;

/** Runs the quickstart (`npm run demo`) over README.md against `baseUrl`; resolves with its stdout. */
function runDemo(baseUrl: string): Promise<string> {
  return runExampleOk('examples/quickstart.ts', ['README.md'], { WEFT_BASE_URL: baseUrl, WEFT_PROJECT: PROJECT });
}

/** A page of the first test's browser that fails the test on a script error or on a request off `url`. */
const openPage = (url: string): Promise<{ page: Page; problems: string[] }> => openCheckedPage(browser!, url);

describe('trace viewer (GET / of weft serve, in Chromium)', () => {
  it('lists the traces of a real program, opens the failed one, shows the tree, the exception and the inputs', async () => {
    const demo = await runDemo(url);
    const links = demo.match(new RegExp(`${url}/#/p/local%2Fui-test/trace/[0-9a-f-]{36}`, 'g')) ?? [];
    expect(links).toHaveLength(5);

    const { page, problems } = await openPage(url);
    await page.goto(`${url}/`);
    const rows = page.locator('a.trow');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(5);
    expect(await page.locator('select[aria-label="project"]').inputValue()).toBe(PROJECT);
    await page.screenshot({ path: path.join(shots(), 'list.png') });

    // the failing question's trace is marked as holding an error below it (the four questions start in the same
    // millisecond or so, under Promise.all: which of them lists first is not the point here)
    const failed = rows.filter({ hasText: 'descendant error' });
    await expect.poll(() => failed.count()).toBe(1);
    await failed.click();
    await page.locator('.crow[data-call]').first().waitFor();
    const names = await page.locator('.calls .cname').allTextContents();
    expect(names.map((n) => n.replace(/^\S+\s+/, '').trim())).toEqual(['answerQuestion', 'retrieve', 'rankChunks']);
    await page.screenshot({ path: path.join(shots(), 'trace.png') });

    await page.locator('.calls .cname', { hasText: 'retrieve' }).click();
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe('retrieve');
    expect(await page.locator('.detail .exc-type').textContent()).toBe('NoMatchError');
    expect(await page.locator('.detail .exc-message').textContent()).toContain('no chunk contains any of the terms airspeed');
    expect(await page.locator('.detail .inputs').textContent()).toContain(FAILING);
    await page.screenshot({ path: path.join(shots(), 'detail.png') });

    // the link is stable: opening it fresh shows the same call
    const link = page.url();
    expect(link).toMatch(/#\/p\/local%2Fui-test\/trace\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    const fresh = await openPage(url);
    await fresh.page.goto(link);
    await expect.poll(() => fresh.page.locator('.detail h2').textContent()).toBe('retrieve');
    expect([...problems, ...fresh.problems]).toEqual([]);
  });

  it('opens a call id in the URL, or ids without dashes, as the call\'s trace with the call selected', async () => {
    const res = await fetch(`${url}/calls/stream_query`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: PROJECT, query: { $expr: { $eq: [{ $getField: 'op_name' }, { $literal: 'retrieve' }] } }, limit: 1 }),
    });
    const call = JSON.parse((await res.text()).split('\n')[0]!) as { id: string; trace_id: string };
    const bare = (id: string): string => id.replaceAll('-', '');
    // a call id in the trace's place, with and without dashes; a trace id and a call id both without dashes
    for (const id of [call.id, bare(call.id), `${bare(call.trace_id)}/${bare(call.id)}`]) {
      const { page, problems } = await openPage(url);
      await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/trace/${id}`);
      await expect.poll(() => page.url()).toBe(`${url}/#/p/${encodeURIComponent(PROJECT)}/trace/${call.trace_id}/${call.id}`);
      await expect.poll(() => page.locator('.detail h2').textContent()).toBe('retrieve');
      expect(problems).toEqual([]);
    }
  });

  it('asks for the API key of a server started with --api-key, once per browser session', async () => {
    const keyed = serveChild(['--port', '0', '--db', path.join(dir, 'weft.db'), '--api-key', 'sesame']);
    servers.push(keyed);
    const keyedUrl = await keyed.viewerUrl;
    const { page, problems } = await openPage(keyedUrl);
    await page.goto(`${keyedUrl}/`);
    const prompt = page.locator('input[aria-label="API key"]');
    await prompt.fill('wrong');
    await prompt.press('Enter');
    await page.getByText('The server refused that key').waitFor();
    await page.locator('input[aria-label="API key"]').fill('sesame');
    await page.locator('input[aria-label="API key"]').press('Enter');
    await page.locator('a.trow').first().waitFor();
    expect(await page.locator('a.trow').count()).toBe(5);
    await page.reload();
    await page.locator('a.trow').first().waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('weft.apiKey'))).toBe('sesame');
    expect(problems).toEqual([]);
  });

  it('shows new traces and running calls turning ended without a reload (live)', async () => {
    const post = async (items: unknown[]): Promise<{ id: string; trace_id: string }[]> => {
      const res = await fetch(`${url}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ batch: items }) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { res: { id: string; trace_id: string }[] }).res;
    };
    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}`);
    await page.locator('a.trow').first().waitFor();
    const startedAt = new Date().toISOString();
    const [root] = await post([{ mode: 'start', req: { start: { project_id: PROJECT, op_name: 'liveAgent', started_at: startedAt, attributes: {}, inputs: { step: 1 } } } }]);
    await expect.poll(() => page.locator('a.trow').first().textContent(), { timeout: 10_000 }).toContain('liveAgent');
    expect(await page.locator('a.trow').first().textContent()).toContain('running');

    await page.locator('a.trow').first().click();
    await expect.poll(() => page.locator('.detail .facts').textContent()).toContain('running');
    await post([{ mode: 'end', req: { end: { project_id: PROJECT, id: root!.id, ended_at: new Date().toISOString(), output: 'done', summary: {} } } }]);
    await expect.poll(() => page.locator('.detail .facts').textContent(), { timeout: 10_000 }).toContain('success');
    expect(problems).toEqual([]);
  });

  it("shows a thread's turns in order, and charts feedback stats", async () => {
    const send = async (path: string, body: unknown): Promise<unknown> => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return res.json();
    };
    const now = Date.now();
    const turn = (i: number) => ({ mode: 'start', req: { start: { project_id: PROJECT, op_name: 'chatTurn', started_at: new Date(now - 60_000 + i * 1000).toISOString(), thread_id: 'thread-7', turn_id: `turn-${i}`, attributes: {}, inputs: { i } } } });
    const started = ((await send('/call/upsert_batch', { batch: [turn(1), turn(2)] })) as { res: { id: string }[] }).res;
    await send('/call/upsert_batch', { batch: started.map((c, i) => ({ mode: 'end', req: { end: { project_id: PROJECT, id: c.id, ended_at: new Date(now - 59_000 + i * 1000).toISOString(), output: `reply ${i + 1}`, summary: {} } } })) });
    await send('/feedback/batch/create', { batch: [0.25, 0.75].map((score, i) => ({ project_id: PROJECT, svc_ref: `svc:///${PROJECT}/call/${started[i]!.id}`, feedback_type: 'score', payload: { score } })) });

    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/thread/thread-7`);
    await expect.poll(() => page.locator('.turn').count()).toBe(2);
    const turns = await page.locator('.turn').allTextContents();
    expect(turns[0]).toContain('turn turn-1');
    expect(turns[0]).toContain('reply 1');
    expect(turns[1]).toContain('reply 2');

    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/feedback`);
    await page.locator('.chart canvas').waitFor();
    await expect.poll(() => page.locator('.feedback').textContent()).toContain('0.5');
    expect(problems).toEqual([]);
  });

  it("shows a model's batches, jobs and reward strips, and a trajectory as chat linked to its trace (examples/rl-rollouts.ts)", async () => {
    const modelId = randomUUID();
    await runExampleOk('examples/rl-rollouts.ts', [], { WEFT_BASE_URL: url, WEFT_MODEL_ID: modelId });
    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/models`);
    await page.locator('a', { hasText: modelId }).click();
    await expect.poll(() => page.locator('.batches tbody tr').count()).toBe(3);
    expect(await page.locator('.jobs').textContent()).toContain('queued');
    await page.locator('.batchchart canvas').waitFor();
    expect(await page.locator('.grouprow').count()).toBe(4);
    expect(await page.locator('.rewardstrip').first().locator('circle').count()).toBe(4);
    await page.screenshot({ path: path.join(shots(), 'model.png') });
    await page.locator('.trajlinks a').first().click();
    await expect.poll(() => page.locator('.trajectory .chat .chat-msg').count()).toBeGreaterThan(3);
    const chat = await page.locator('.trajectory .chat').textContent();
    expect(chat).toContain('What is');
    expect(await page.locator('.trajectory .chat-tool-name').first().textContent()).toBe('calculator');
    await page.locator('.trajectory a', { hasText: 'open its trace' }).click();
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe('solve');
    await page.goBack();
    await page.locator('button[role="tab"]', { hasText: 'val' }).click();
    await page.getByText('No trajectories in this split.').waitFor();
    expect(problems).toEqual([]);
  }, 70_000);

  it('lists evaluation runs and compares two side by side: deltas, the regressed row marked, a filter to changed rows', async () => {
    const project = 'local/ui-evals';
    const client = init({ project, baseUrl: url, flushIntervalMs: 50 });
    const dataset = [{ q: 'a', expected: 'A' }, { q: 'b', expected: 'B' }, { q: 'c', expected: 'C' }];
    const base = await evaluate({ name: 'upper', client, dataset, task: (r: { q: string }) => r.q.toUpperCase(), scorers: [exactMatch()], progress: false });
    const cand = await evaluate({ name: 'sloppy', client, dataset, task: (r: { q: string }) => (r.q === 'b' ? 'b' : r.q.toUpperCase()), scorers: [exactMatch()], progress: false });
    await flush();
    await shutdown();

    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(project)}/evaluations`);
    await expect.poll(() => page.locator('.evals tbody tr[data-run]').count()).toBe(2);
    expect(await page.locator(`tr[data-run="${cand.id}"]`).textContent()).toContain('0.667');
    await page.locator(`tr[data-run="${base.id}"] input[type=checkbox]`).check();
    await page.locator(`tr[data-run="${cand.id}"] input[type=checkbox]`).check();
    await page.locator('a.button', { hasText: 'Compare 2 runs' }).click();
    await expect.poll(() => page.url()).toContain(`/evaluations/${base.id},${cand.id}`);
    await expect.poll(() => page.locator('.deltas tr[data-score="exact_match"]').textContent()).toBe('exact_match10.667 (-0.333)');
    expect(await page.locator('.compare .summary').textContent()).toBe('1 regressed, 0 improved, 0 changed, 2 same of 3 rows');
    const regressed = page.locator('tr[data-change="regressed"]');
    expect(await regressed.textContent()).toContain('▼ regressed');
    expect(await regressed.textContent()).toContain('{"q":"b","expected":"B"}');
    expect(await page.locator('.rows tbody tr').count()).toBe(3);
    await page.getByLabel('only rows that changed').check();
    expect(await page.locator('.rows tbody tr').count()).toBe(1);
    await page.screenshot({ path: path.join(shots(), 'evaluations.png') });
    expect(problems).toEqual([]);
  });

  it('a compare link opened in a tab already on the page lists both runs checked and compares them (issue 41, point 4)', async () => {
    const project = 'local/ui-evals-link';
    const client = init({ project, baseUrl: url, flushIntervalMs: 50 });
    const dataset = [{ q: 'a', expected: 'A' }, { q: 'b', expected: 'B' }];
    const run = (name: string, task: (r: { q: string }) => string) => evaluate({ name, client, dataset, task, scorers: [exactMatch()], progress: false });
    const cand = await run('cand', (r) => r.q);
    await flush();
    const { page, problems } = await openPage(url);
    const evals = `${url}/#/p/${encodeURIComponent(project)}/evaluations`;
    await page.goto(evals);
    await page.locator(`tr[data-run="${cand.id}"]`).waitFor();
    const base = await run('base', (r) => r.q.toUpperCase()); // recorded after the list was read
    await flush();
    await shutdown();

    await page.goto(`${evals}/${base.id},${cand.id}`); // the same document: a hash change
    await expect.poll(() => page.locator('.deltas tr[data-score="exact_match"]').textContent()).toBe('exact_match10 (-1)');
    const rows = await page.locator('.evals tbody tr[data-run]').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-run'), tr.querySelector('input')!.checked]));
    expect(rows).toEqual([[base.id, true], [cand.id, true]]);
    expect(await page.locator('.compare .rows thead').textContent()).toBe('examplebasecand');
    expect(problems).toEqual([]);
  });
});
