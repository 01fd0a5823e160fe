// @weft-test: postgres
// Calls' media in the viewer (issue 51, point 3), in Chromium against `weft serve` on the run's store: a vision chat's
// image drawn inline (decoded, its natural width) opening full size, the reply's speech with an audio player that knows
// its duration (a real PNG and a real WAV made by the test), a document not arrived yet said so and then shown as a link
// once it arrives, a dropped one with its reason, an image in a plain op's inputs drawn in the JSON tree, and the
// list's files column counting the files apart; on a server with an API key, the file read with the key into a blob: URL.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { sha } from 'weft-test-kit/digest.js';
import { mediaRef, shortWav, storeFile, tinyPng } from 'weft-test-kit/media-files.js';
import { testStore } from 'weft-test-kit/test-store.js';
import { openCheckedPage, serveChild, stopServe, useViewerServer } from './browser.js';

const PROJECT = 'acme/media';
const viewer = useViewerServer('media');

/** Stores a started and ended root call; answers its ids. */
async function storeCall(op: string, inputs: unknown, output: unknown, url = viewer().url, headers: Record<string, string> = {}): Promise<{ id: string; trace_id: string }> {
  const id = newId();
  const trace_id = newId();
  const now = new Date().toISOString();
  const batch = [
    { mode: 'start', req: { start: { project_id: PROJECT, id, trace_id, op_name: op, started_at: now, attributes: {}, inputs } } },
    { mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: now, output, summary: {} } } },
  ];
  const res = await fetch(`${url}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ batch }) });
  expect(res.status).toBe(200);
  return { id, trace_id };
}

describe(`media in the viewer (in Chromium, ${testStore()} store)`, () => {
  it('draws a chat\'s image and speech from their files, says which file has not arrived (until it does) and which was dropped', async () => {
    const { url, browser, dir } = viewer();
    const png = tinyPng(64, 48);
    const wav = shortWav(2000);
    const pdfText = '%PDF-1.4\n% a document that arrives after its call\n%%EOF\n';
    const pdf = Buffer.from(pdfText);
    const [pngDigest, wavDigest] = [await storeFile(url, PROJECT, png), await storeFile(url, PROJECT, wav)];
    // the PDF is referred to by the digest the server will answer for it, and stored only after its call
    const pdfRef = mediaRef('application/pdf', pdf, sha(pdfText), 'messages[0].content[2].file.file_data');
    const chat = await storeCall('openai.chat.completions.create', {
      model: 'gpt-4o-audio-preview',
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'what is in this picture?' },
        { type: 'image_url', image_url: { url: mediaRef('image/png', png, pngDigest, 'messages[0].content[1].image_url.url') } },
        { type: 'file', file: { filename: 'notes.pdf', file_data: pdfRef } },
        { type: 'image_url', image_url: { url: { _type: 'weft.media', mime_type: 'image/jpeg', size_bytes: 40_000_000, where: 'messages[0].content[3].image_url.url', dropped: 'over the 20 MB file limit' } } },
      ] }],
    }, {
      model: 'gpt-4o-audio-preview',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, audio: { id: 'a1', data: mediaRef('audio/wav', wav, wavDigest, 'choices[0].message.audio.data'), transcript: 'a gradient' } } }],
    });

    const { page, problems } = await openCheckedPage(browser, url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/trace/${chat.trace_id}/${chat.id}`);
    const view = page.locator('.detail .chat');
    const img = view.locator('img.media-thumb');
    await img.waitFor();
    // decoded by the browser, at the PNG's own size
    expect(await img.evaluate(async (el: HTMLImageElement) => { await el.decode(); return [el.naturalWidth, el.naturalHeight]; })).toEqual([64, 48]);
    const full = view.locator('a.media-thumb-link');
    expect(await full.getAttribute('target')).toBe('_blank');
    expect(await full.getAttribute('href')).toBe(await img.getAttribute('src'));
    const audio = view.locator('.chat-msg.reply audio[data-media="audio"]');
    await audio.waitFor();
    const duration = await audio.evaluate((el: HTMLAudioElement) => new Promise<number>((resolve, reject) => {
      if (el.readyState >= 1) return resolve(el.duration);
      el.addEventListener('loadedmetadata', () => resolve(el.duration));
      el.addEventListener('error', () => reject(new Error(`audio error ${el.error?.code}`)));
    }));
    expect(duration).toBeCloseTo(2, 2);
    expect(await view.locator('[data-media="dropped"]').textContent()).toBe('[image image/jpeg, 38.1 MB] dropped: over the 20 MB file limit');
    expect(await view.locator('[data-media="missing"]').textContent()).toBe(`[file application/pdf, ${pdf.length} B] file not arrived yet`);
    await page.screenshot({ path: path.join(process.env['WEFT_UI_SHOTS'] ?? dir, 'viewer-media.png') }); // WEFT_UI_SHOTS=docs makes docs/viewer-media.png

    // the document arrives after its call: the page, asking again, shows it as a link that opens it
    expect(await storeFile(url, PROJECT, pdf)).toBe(pdfRef.digest);
    const link = view.locator('[data-media="file"] a.media-open');
    await link.waitFor({ timeout: 15_000 });
    expect(await link.textContent()).toBe('open application/pdf');
    const opened = await fetch(new URL((await link.getAttribute('href'))!, url));
    expect([opened.status, opened.headers.get('content-type'), Buffer.from(await opened.arrayBuffer()).equals(pdf)]).toEqual([200, 'application/pdf', true]);

    // the list counts the root's files apart from its JSON: 3 distinct stored files and one dropped
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}`);
    const row = page.locator(`a.trow[data-trace="${chat.trace_id}"]`);
    await row.waitFor();
    const kb = ((png.length + wav.length + pdf.length) / 1024).toFixed(1);
    expect(await row.locator('[data-col="files"]').textContent()).toBe(`3 · ${kb} KB, 1 dropped`);
    expect(problems).toEqual([]);
  });

  it('draws an image held anywhere in a plain op\'s inputs inside the JSON tree', async () => {
    const { url, browser } = viewer();
    const png = tinyPng(20, 10);
    const digest = await storeFile(url, PROJECT, png);
    const call = await storeCall('describe_photo', { request: { photo: mediaRef('image/png', png, digest, 'request.photo') } }, 'a small gradient');
    const { page, problems } = await openCheckedPage(browser, url);
    await page.goto(`${url}/#/p/${encodeURIComponent(PROJECT)}/trace/${call.trace_id}/${call.id}`);
    const img = page.locator('.detail .inputs img.media-thumb');
    await img.waitFor();
    expect(await img.evaluate(async (el: HTMLImageElement) => { await el.decode(); return el.naturalWidth; })).toBe(20);
    expect(problems).toEqual([]);
  });

  it('on a server with an API key, reads the file with the key the page was given and draws it from a blob: URL', async () => {
    const { browser, dir } = viewer();
    const keyed = serveChild(['--port', '0', '--db', path.join(dir, 'keyed.db'), '--api-key', 'sesame']);
    try {
      const keyedUrl = await keyed.viewerUrl;
      const auth = { authorization: `Basic ${Buffer.from('api:sesame').toString('base64')}` };
      const png = tinyPng(30, 15);
      const digest = await storeFile(keyedUrl, PROJECT, png, auth);
      const call = await storeCall('describe_photo', { photo: mediaRef('image/png', png, digest, 'photo') }, 'ok', keyedUrl, auth);
      const { page, problems } = await openCheckedPage(browser, keyedUrl);
      await page.goto(`${keyedUrl}/#/p/${encodeURIComponent(PROJECT)}/trace/${call.trace_id}/${call.id}`);
      await page.locator('input[aria-label="API key"]').fill('sesame');
      await page.locator('input[aria-label="API key"]').press('Enter');
      const img = page.locator('.detail .inputs img.media-thumb');
      await img.waitFor();
      expect(await img.getAttribute('src')).toMatch(/^blob:/);
      expect(await img.evaluate(async (el: HTMLImageElement) => { await el.decode(); return el.naturalWidth; })).toBe(30);
      expect(problems).toEqual([]);
    } finally {
      await stopServe(keyed);
    }
  });
});
