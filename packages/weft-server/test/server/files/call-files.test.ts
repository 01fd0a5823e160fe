// @weft-test: postgres
// Calls' media files on the server (issue 51, point 2), over loopback HTTP on both stores: GET /weft/files/... serves a
// file with its type, ETag and byte ranges (206 with the right bytes, 416); retention and /calls/delete remove a file
// with the last call referring to it and keep one another call still refers to.
import { describe, expect, it } from 'vitest';
import { CALLS_DELETE_BEFORE_PATH, newId } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { mediaRef, shortWav, storeFile, tinyPng } from 'weft-test-kit/media-files.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, type Json, post, start, startItem } from 'weft-test-kit/server-http.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { weftFilePath } from '../../../src/media-ref.js';

const server = useTestServer();
const DAY = 86_400_000;
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

/** A root call of `project` started `days` ago, with `inputs` and `output`. */
function call(project: string, days: number, inputs: Json, output: unknown = null): { id: string; items: Json[] } {
  const id = newId();
  const items = [
    startItem(start({ project_id: project, id, trace_id: newId(), started_at: ago(days), inputs })),
    endItem(end(id, { project_id: project, ended_at: ago(days), output })),
  ];
  return { id, items };
}

/** An OpenAI vision chat's inputs holding `ref` where the data URL was. */
const visionInputs = (ref: Json): Json => ({ messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: ref } }] }] });

const fileDigests = async (project: string): Promise<string[]> =>
  (await storeRows<{ digest: string }>(server(), 'SELECT digest FROM files WHERE project_id = ? ORDER BY digest', [project])).map((r) => r.digest);

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${server().url}${path}`, { headers });

describe('GET /weft/files/:entity/:project/:digest', () => {
  it('serves a file with its type, nosniff, ETag and a long cache; 304 for its ETag; 404 for another project or digest', async () => {
    const project = uniqueProject('files-get');
    const png = tinyPng();
    const digest = await storeFile(server().url, project, png);
    const res = await get(weftFilePath(project, digest, 'image/png'));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
    expect(Object.fromEntries(['content-type', 'content-disposition', 'x-content-type-options', 'etag', 'accept-ranges', 'content-length', 'cross-origin-resource-policy'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-type': 'image/png', 'content-disposition': 'inline', 'x-content-type-options': 'nosniff', etag: `"${digest}"`,
      'accept-ranges': 'bytes', 'content-length': String(png.length), 'cross-origin-resource-policy': 'same-origin',
    });
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await get(weftFilePath(project, digest, 'image/png'), { 'if-none-match': `"${digest}"` })).status).toBe(304);
    expect((await get(weftFilePath(uniqueProject('files-other'), digest))).status).toBe(404);
    const missing = await get(weftFilePath(project, 'NotStoredYet'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json)['detail']).toContain('not stored yet');
  });

  it('serves a type off the safe list (SVG, HTML) or none as application/octet-stream, an attachment', async () => {
    const project = uniqueProject('files-types');
    const digest = await storeFile(server().url, project, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    for (const type of ['image/svg+xml', 'text/html', undefined]) {
      const res = await get(weftFilePath(project, digest, type));
      expect(res.status).toBe(200);
      expect([res.headers.get('content-type'), res.headers.get('content-disposition')]).toEqual(['application/octet-stream', 'attachment']);
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
    }
    expect((await get(weftFilePath(project, digest, 'audio/wav; codecs=1'))).headers.get('content-type')).toBe('audio/wav');
  });

  it('answers a byte range with 206 and exactly those bytes, a suffix range too; 416 for a range past the end', async () => {
    const project = uniqueProject('files-range');
    const wav = shortWav(300);
    const digest = await storeFile(server().url, project, wav);
    const path = weftFilePath(project, digest, 'audio/wav');
    const first = await get(path, { range: 'bytes=0-43' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-43/${wav.length}`);
    expect(first.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await first.arrayBuffer())).toEqual(wav.subarray(0, 44));
    const middle = await get(path, { range: 'bytes=1000-1999' });
    expect([middle.status, middle.headers.get('content-range')]).toEqual([206, `bytes 1000-1999/${wav.length}`]);
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(wav.subarray(1000, 2000));
    const tail = await get(path, { range: 'bytes=-10' });
    expect([tail.status, tail.headers.get('content-range')]).toEqual([206, `bytes ${wav.length - 10}-${wav.length - 1}/${wav.length}`]);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(wav.subarray(wav.length - 10));
    const open = await get(path, { range: `bytes=${wav.length - 5}-` });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(wav.subarray(wav.length - 5));
    const past = await get(path, { range: `bytes=${wav.length}-` });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${wav.length}`]);
    const malformed = await get(path, { range: 'pages=1-2' });
    expect(malformed.status).toBe(200);
    expect(Buffer.from(await malformed.arrayBuffer())).toEqual(wav);
  });

  it('with API keys: 401 without credentials, 403 for a project outside the key grant', async () => {
    const keyed = await startTestServer({ apiKeys: ['grant=acme/a'] });
    try {
      const auth = { authorization: `Basic ${Buffer.from('api:grant').toString('base64')}` };
      const digest = await storeFile(keyed.url, 'acme/a', tinyPng(), auth);
      expect((await fetch(`${keyed.url}${weftFilePath('acme/a', digest, 'image/png')}`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${keyed.url}${weftFilePath('acme/a', digest, 'image/png')}`)).status).toBe(401);
      expect((await fetch(`${keyed.url}${weftFilePath('acme/b', digest, 'image/png')}`, { headers: auth })).status).toBe(403);
    } finally {
      await keyed.close();
    }
  });
});

describe('files of deleted calls', () => {
  it('retention removes a file with the last call referring to it and keeps one a remaining call still refers to', async () => {
    const project = uniqueProject('files-retention');
    const png = tinyPng(4, 4);
    const wav = shortWav(100);
    const [pngDigest, wavDigest] = [await storeFile(server().url, project, png), await storeFile(server().url, project, wav)];
    const unreferenced = await storeFile(server().url, project, Buffer.from('a Weave object file no call refers to'));
    const pngRef = mediaRef('image/png', png, pngDigest, 'messages[0].content[1].image_url.url');
    const wavRef = mediaRef('audio/wav', wav, wavDigest, 'choices[0].message.audio.data');
    const oldPngOnly = call(project, 40, visionInputs(pngRef));
    const oldBoth = call(project, 40, visionInputs(pngRef), { choices: [{ message: { role: 'assistant', audio: { data: wavRef } } }] });
    const newWav = call(project, 5, { speech: wavRef });
    await batch(server(), [...oldPngOnly.items, ...oldBoth.items, ...newWav.items]);
    expect((await fileDigests(project)).sort()).toEqual([pngDigest, wavDigest, unreferenced].sort());

    const res = await post(server(), CALLS_DELETE_BEFORE_PATH, { project_id: project, before: ago(30) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ deleted_calls: 2, deleted_files: 1 });
    expect((await fileDigests(project)).sort()).toEqual([wavDigest, unreferenced].sort());
    expect((await get(weftFilePath(project, pngDigest, 'image/png'))).status).toBe(404);
    expect((await get(weftFilePath(project, wavDigest, 'audio/wav'))).status).toBe(200);

    // the last call referring to the WAV goes (by /calls/delete): the WAV with it; the file no call referred to stays
    expect((await post(server(), '/calls/delete', { project_id: project, call_ids: [newWav.id] })).status).toBe(200);
    expect(await fileDigests(project)).toEqual([unreferenced]);
  });

  it('a start sent again without the media drops the call\'s file ref: the file goes with the last call referring to it', async () => {
    const project = uniqueProject('files-rewrite');
    const png = tinyPng(3, 3);
    const digest = await storeFile(server().url, project, png);
    const first = call(project, 40, {}, { image: mediaRef('image/png', png, digest, 'image') });
    const other = call(project, 40, { image: mediaRef('image/png', png, digest, 'image') });
    await batch(server(), [...first.items, ...other.items]);
    // the second call's input is rewritten without the image: only the first call refers to it now
    await batch(server(), [startItem(start({ ...((other.items[0] as { req: { start: Json } }).req.start), inputs: { image: 'gone' } }))]);
    expect((await post(server(), CALLS_DELETE_BEFORE_PATH, { project_id: project, before: ago(30) })).status).toBe(200);
    expect(await fileDigests(project)).toEqual([]);
  });
});
