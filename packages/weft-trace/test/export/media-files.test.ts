// Media in an op's inputs and output stored once per project as files of a real server, the call holding MediaRefs: Buffer, digests, limits, refusal, late files, mask, media off.
import { afterAll, describe, expect, it } from 'vitest';
import { flush, getExportStats, init, op, weftMedia } from '../../src/index.js';
import { MediaRef } from '../../src/wire-api.js';
import { digestBytes } from 'weft-server/src/server/tables/digest.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startFaultProxy } from 'weft-test-kit/fault-proxy.js';
import { mediaRefsIn, pngOf, readStoredFile, storeFile, wavOf } from 'weft-test-kit/media-files.js';
import { sha } from 'weft-test-kit/digest.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { one } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const PNG = pngOf(300_000, 7);

const describeImage = op(function describeImage(image: unknown, note: string) {
  return { seen: note, bytes: (image as { byteLength?: number }).byteLength ?? 0 };
});

describe('media values in an op', () => {
  it('stores a Buffer argument once as a file and records a reference in its place, under the digest the server gives', async () => {
    const project = uniqueProject('media-buffer');
    const before = getExportStats().files;
    init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    describeImage(PNG, 'first');
    describeImage(PNG, 'second');
    expect((await flush()).dropped).toBe(0);
    const calls = await readCalls(server().url, project);
    expect(calls).toHaveLength(2);
    const refs = calls.map((c) => MediaRef.parse(c.inputs!['image']));
    const digest = sha(PNG);
    for (const ref of refs) expect(ref).toEqual({ _type: 'weft.media', mime_type: 'image/png', size_bytes: PNG.byteLength, digest, where: 'image' });
    // the SDK's digest is the server's: its digest function, and what POST /file/create answers for the same bytes
    expect(digestBytes(PNG)).toBe(digest);
    expect(await storeFile(server().url, project, PNG)).toBe(digest);
    const file = await readStoredFile(server().url, project, digest);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PNG)).toBe(true);
    expect(JSON.stringify(calls[0]!.inputs).length).toBeLessThan(400);
    const after = getExportStats().files;
    expect(after.sent - before.sent).toBe(1);
    expect(after.deduplicated - before.deduplicated).toBe(1);
  });

  it('finds media in outputs, nested values, ArrayBuffers, Blobs, data URLs and weftMedia(), and says where each was', async () => {
    const project = uniqueProject('media-kinds');
    const wav = wavOf(0.2);
    init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    const speak = op(async function speak(text: string) {
      return { text, audio: { data: wav.toString('base64') }, raw: new Blob([new Uint8Array(wav)], { type: 'audio/wav' }) };
    });
    const upload = op(function upload(payload: unknown) {
      return payload;
    });
    // an MCP tool result: image and audio content as base64 with their mimeType
    const icon = pngOf(600, 4);
    const toolResult = op(function toolResult() {
      return { content: [{ type: 'image', data: icon.toString('base64'), mimeType: 'image/png' }, { type: 'audio', data: wav.toString('base64'), mimeType: 'audio/wav' }, { type: 'text', text: 'done' }] };
    });
    toolResult();
    await speak('hi');
    upload({ files: [new Uint8Array(PNG).buffer, `data:image/png;base64,${PNG.toString('base64')}`], tagged: weftMedia(Buffer.from('plain text as a file'), 'text/plain') });
    await flush();
    const calls = await readCalls(server().url, project);
    const spoken = mediaRefsIn(one(calls, 'speak').output);
    expect(spoken.map((r) => [r.where, r.mime_type, r.size_bytes, r.digest])).toEqual([
      ['audio.data', 'audio/wav', wav.byteLength, sha(wav)],
      ['raw', 'audio/wav', wav.byteLength, sha(wav)],
    ]);
    const uploaded = mediaRefsIn(one(calls, 'upload').inputs);
    expect(uploaded.map((r) => [r.where, r.mime_type, r.digest])).toEqual([
      ['payload.files[0]', 'image/png', sha(PNG)],
      ['payload.files[1]', 'image/png', sha(PNG)],
      ['payload.tagged', 'text/plain', sha(Buffer.from('plain text as a file'))],
    ]);
    expect(mediaRefsIn(one(calls, 'toolResult').output).map((r) => [r.where, r.mime_type, r.digest])).toEqual([
      ['content[0].data', 'image/png', sha(icon)],
      ['content[1].data', 'audio/wav', sha(wav)],
    ]);
    for (const r of [...spoken, ...uploaded]) expect((await readStoredFile(server().url, project, r.digest!)).status).toBe(200);
  });

  it('keeps short base64, hashes and prose as text, and other typed arrays as before', async () => {
    const project = uniqueProject('media-not');
    init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    const hash = 'a'.repeat(2048);
    const keep = op(function keep(a: string, b: string, c: Float32Array) {
      return a.length + b.length + c.length;
    });
    keep(hash, 'data: not a data URL', new Float32Array([1, 2]));
    await flush();
    const [call] = await readCalls(server().url, project);
    expect(call!.inputs).toMatchObject({ a: hash, b: 'data: not a data URL', c: { __type: 'Float32Array', byteLength: 8 } });
    expect(mediaRefsIn(call!.inputs)).toEqual([]);
  });

  it('leaves a marker instead of a digest for a file over maxFileBytes or past maxPendingBytes', async () => {
    const project = uniqueProject('media-limits');
    init({ project, baseUrl: server().url, flushIntervalMs: 50, media: { maxFileBytes: 250_000 } });
    describeImage(PNG, 'too big');
    await flush();
    const [big] = await readCalls(server().url, project);
    expect(big!.inputs!['image']).toEqual({ _type: 'weft.media', mime_type: 'image/png', size_bytes: PNG.byteLength, dropped: `over the 0.3 MB limit (${(PNG.byteLength / 1e6).toFixed(1)} MB)`, where: 'image' });

    const project2 = uniqueProject('media-pending');
    init({ project: project2, baseUrl: server().url, flushIntervalMs: 50, media: { maxPendingBytes: 400_000 } });
    describeImage(PNG, 'one');
    describeImage(pngOf(300_000, 8), 'two');
    await flush();
    const refs = (await readCalls(server().url, project2)).map((c) => c.inputs!['image'] as { digest?: string; dropped?: string });
    expect(refs[0]!.digest).toBe(sha(PNG));
    expect(refs[1]).toMatchObject({ dropped: 'memory bound for files waiting reached (maxPendingBytes 400000)' });
    expect(refs[1]!.digest).toBeUndefined();
  });

  it('lets mask see a media value and drop it (its bytes are then never sent), and media: false records bytes as before', async () => {
    const project = uniqueProject('media-mask');
    const before = getExportStats().files.sent;
    init({ project, baseUrl: server().url, flushIntervalMs: 50, mask: (v) => (v !== null && typeof v === 'object' && 'image' in v ? { ...v, image: `[${(v as { image: { mime_type: string } }).image.mime_type} withheld]` } : v) });
    describeImage(pngOf(1000, 9), 'masked');
    await flush();
    const [masked] = await readCalls(server().url, project);
    expect(masked!.inputs!['image']).toBe('[image/png withheld]');
    expect(getExportStats().files.sent).toBe(before);

    const off = uniqueProject('media-off');
    init({ project: off, baseUrl: server().url, flushIntervalMs: 50, media: false });
    describeImage(Buffer.from([1, 2, 3]), 'off');
    await flush();
    const [plain] = await readCalls(server().url, off);
    expect(plain!.inputs!['image']).toEqual({ __type: 'Buffer', byteLength: 3, base64: 'AQID' });
  });
});

describe('media files and the server', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('stores the call when the server refuses its file (413), and later references to the same bytes say why', async () => {
    const small = await startTestServer({ maxBodyBytes: 200_000 });
    closers.push(() => small.close());
    const project = uniqueProject('media-refused');
    const before = getExportStats().files.dropped;
    init({ project, baseUrl: small.url, flushIntervalMs: 50 });
    describeImage(PNG, 'refused');
    await flush();
    describeImage(PNG, 'again');
    await flush();
    const [first, second] = await readCalls(small.url, project);
    expect(first!.inputs!['image']).toMatchObject({ digest: sha(PNG) });
    expect((await readStoredFile(small.url, project, sha(PNG))).status).toBe(404);
    const again = second!.inputs!['image'] as { digest?: string; dropped?: string };
    expect(again.digest).toBeUndefined();
    expect(again.dropped).toMatch(/^server refused: 413 /);
    expect(getExportStats().files.dropped - before).toBe(2);
  });

  it('sends the call at once when its file is slow: the call is stored first, the file arrives after it', async () => {
    const proxy = await startFaultProxy(server().url);
    closers.push(() => proxy.close());
    proxy.inject({ kind: 'delay', ms: 4_000 }, { path: '/file/create' });
    const project = uniqueProject('media-late');
    init({ project, baseUrl: proxy.url, flushIntervalMs: 50 });
    describeImage(PNG, 'late');
    const flushed = flush();
    let stored: unknown;
    for (let i = 0; i < 150 && stored === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      stored = (await readCalls(server().url, project))[0]?.inputs!['image'];
    }
    expect(stored).toMatchObject({ digest: sha(PNG) });
    expect((await readStoredFile(server().url, project, sha(PNG))).status).toBe(404);
    await flushed;
    const file = await readStoredFile(server().url, project, sha(PNG));
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PNG)).toBe(true);
  }, 20_000);
});
