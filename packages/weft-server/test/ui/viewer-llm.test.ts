// @weft-test: postgres
// The viewer's pages for LLM apps in Chromium, on the run's store (SQLite, or PostgreSQL in the postgres project): a
// traced agent's model call as chat, OTel GenAI spans as chat, feedback clicked and stored, the overview's cost.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openCheckedPage, useViewerServer } from './browser.js';
import { tracedAgent, AGENT_QUESTION, AGENT_PROJECT, query1, sendGenAISpans, OTEL_PROJECT } from './viewer-agent.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { testStore } from 'weft-test-kit/test-store.js';

const viewer = useViewerServer('llm');
const shots = (): string => viewer().shots;
const openPage = (origin: string): Promise<{ page: Page; problems: string[] }> => openCheckedPage(viewer().browser, origin);
/** USD over a record's `summary.costs` (`include_costs`). */
const costOf = (r: { summary: Record<string, unknown> }): number =>
  Object.values((r.summary['costs'] ?? {}) as Record<string, { total_cost: number }>).reduce((s, c) => s + c.total_cost, 0);
/** As the viewer writes USD (src/ui/format.ts `usd`). */
const dollars = (n: number): string => `$${n.toFixed(n < 0.01 ? 6 : 4)}`;

describe(`the viewer for LLM apps (in Chromium, ${testStore()} store)`, () => {
  it('opens a traced agent\'s model call as chat: the question, the tool call, the streamed reply as text; JSON one click away', async () => {
    const { url } = viewer();
    await tracedAgent(url);
    const calls = await query1(url, AGENT_PROJECT, { filter: { op_names: ['openai.chat.completions.create'] }, sort_by: [{ field: 'started_at', direction: 'asc' }] });
    expect(calls).toHaveLength(2);
    const streamed = calls[1]!;
    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}/trace/${streamed.trace_id}/${streamed.id}`);
    const chat = page.locator('.detail .chat');
    await chat.waitFor();
    expect(await chat.locator('.chat-msg[data-role="user"]').first().textContent()).toContain(AGENT_QUESTION);
    expect(await chat.locator('.chat-tool-call .chat-tool-name').first().textContent()).toBe('get_weather');
    expect(await chat.locator('.chat-msg[data-role="tool"]').textContent()).toContain('21');
    expect(await chat.locator('.chat-msg.reply .chat-text').textContent()).toBe(streamedText(5));
    expect(await chat.locator('.chat-facts [data-fact="input"]').textContent()).toContain('1200');
    await page.screenshot({ path: path.join(shots(), 'chat.png') });
    await page.getByRole('tab', { name: 'JSON' }).click();
    await expect.poll(() => page.locator('.chat-section .json').textContent()).toContain('choices');
    // the tree marks the model calls with model, tokens and the cost the API reports, and the root with the trace's totals
    const [priced] = await query1(url, AGENT_PROJECT, { filter: { call_ids: [calls[0]!.id] }, include_costs: true });
    const [root] = await query1(url, AGENT_PROJECT, { filter: { trace_ids: [streamed.trace_id], trace_roots_only: true }, include_costs: true });
    expect(await page.locator('.calls .cmeta[data-llm]').count()).toBe(2);
    expect(await page.locator('.calls .cmeta[data-llm]').first().textContent()).toBe(`LLM gpt-4o-mini-2024-07-18 · 1.3k tok · ${dollars(costOf(priced!))}`);
    expect(await page.locator('.calls .crow').first().locator('.cmeta').textContent()).toBe(`Σ · 2.6k tok · ${dollars(costOf(root!))}`);

    // the list: input and output previews, the model; its filters in the URL
    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}?op=weather`);
    const row = page.locator('a.trow').first();
    await row.waitFor();
    expect(await row.locator('[data-col="input"]').textContent()).toBe(AGENT_QUESTION);
    expect(await row.locator('[data-col="output"]').textContent()).toBe(streamedText(5));
    expect(await row.locator('[data-col="model"]').textContent()).toBe('gpt-4o-mini-2024-07-18');
    expect(await page.locator('input[aria-label="op name"]').inputValue()).toBe('weather');
    await page.screenshot({ path: path.join(shots(), 'list-llm.png') });
    await page.locator('input[aria-label="op name"]').fill('nomatch');
    await page.locator('input[aria-label="op name"]').press('Enter');
    await expect.poll(() => page.url()).toBe(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}?op=nomatch`);
    await page.getByText('No traces match').waitFor();

    // any id opens: the streamed call's id without dashes, typed in the header
    await page.locator('input[aria-label="open id"]').fill(streamed.id.replaceAll('-', ''));
    await page.locator('input[aria-label="open id"]').press('Enter');
    await expect.poll(() => page.url()).toBe(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}/trace/${streamed.trace_id}/${streamed.id}`);
    await page.locator('.detail .chat').waitFor();
    expect(problems).toEqual([]);
  });

  it('opens OTel GenAI spans as chat: messages in attributes, and in events', async () => {
    const { url } = viewer();
    const spans = await sendGenAISpans(url, OTEL_PROJECT);
    const { page, problems } = await openPage(url);
    for (const [span, reply] of [[spans.attributes, 'Paris.'], [spans.events, '4']] as const) {
      await page.goto(`${url}/#/p/${encodeURIComponent(OTEL_PROJECT)}/trace/${span.traceId}/${span.callId}`);
      const chat = page.locator('.detail .chat-section[data-format="otel-genai"]');
      await chat.waitFor();
      expect(await chat.locator('.chat-msg[data-role="user"]').first().textContent()).toContain(span.question);
      expect(await chat.locator('.chat-msg.reply .chat-text').textContent()).toBe(reply);
    }
    expect(problems).toEqual([]);
  });

  it('stores a thumbs-up click as feedback the API then returns, shows it in the list, and takes it back', async () => {
    const { url } = viewer();
    const [root] = await query1(url, AGENT_PROJECT, { filter: { trace_roots_only: true }, limit: 1 });
    const feedbackOf = async (): Promise<Record<string, unknown>[]> =>
      ((await query1(url, AGENT_PROJECT, { filter: { call_ids: [root!.id] }, include_feedback: true }))[0]!.summary['feedback'] as Record<string, unknown>[] | undefined) ?? [];
    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}/trace/${root!.trace_id}/${root!.id}`);
    await page.getByRole('button', { name: 'thumbs up' }).click();
    await expect.poll(feedbackOf).toEqual([expect.objectContaining({ feedback_type: 'thumbs', payload: { up: true }, creator: 'viewer', svc_ref: `svc:///${AGENT_PROJECT}/call/${root!.id}` })]);
    expect(await page.locator('.fb-list').textContent()).toContain('▲');
    await page.locator('input[aria-label="note"]').fill('right answer, slow tool');
    await page.locator('input[aria-label="note"]').press('Enter');
    await page.locator('input[aria-label="score value"]').fill('0.8');
    await page.locator('input[aria-label="score value"]').press('Enter');
    await expect.poll(async () => (await feedbackOf()).map((f) => f['payload'])).toEqual([{ up: true }, { note: 'right answer, slow tool' }, { quality: 0.8 }]);
    await page.screenshot({ path: path.join(shots(), 'feedback.png') });

    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}`);
    await expect.poll(() => page.locator(`a.trow[data-trace="${root!.trace_id}"] .fb-col`).textContent()).toBe('▲ 1 · 2 fb');

    // one's own thumb taken back: a second click purges it
    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}/trace/${root!.trace_id}/${root!.id}`);
    await expect.poll(() => page.getByRole('button', { name: 'thumbs up' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'thumbs up' }).click();
    await expect.poll(async () => (await feedbackOf()).map((f) => f['feedback_type'])).toEqual(['note', 'score']);
    expect(problems).toEqual([]);
  });

  it('shows on the overview the cost the API reports for the same window, and splits by model', async () => {
    const { url } = viewer();
    const roots = await query1(url, AGENT_PROJECT, { filter: { trace_roots_only: true }, include_costs: true });
    const reported = roots.reduce((sum, r) => sum + costOf(r), 0);
    expect(reported).toBeGreaterThan(0);
    const { page, problems } = await openPage(url);
    await page.goto(`${url}/#/p/${encodeURIComponent(AGENT_PROJECT)}/overview`);
    const cost = page.locator('.ov-totals [data-total="cost"] .ov-value');
    await cost.waitFor();
    expect(await cost.textContent()).toBe(dollars(reported));
    expect(await page.locator('.ov-totals [data-total="calls"] .ov-value').textContent()).toBe(String(roots.length));
    expect(await page.locator('.ov-chart canvas').count()).toBe(5);
    await page.screenshot({ path: path.join(shots(), 'overview.png') });
    await page.locator('select[aria-label="split"]').selectOption('model');
    await expect.poll(() => page.url()).toContain('/overview?window=24h&by=model');
    await expect.poll(() => page.locator('.ov-groups tbody tr').first().textContent()).toContain('gpt-4o-mini-2024-07-18');
    expect(problems).toEqual([]);
  });

});
