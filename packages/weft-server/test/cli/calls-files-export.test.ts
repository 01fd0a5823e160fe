// @weft-test: postgres
// `weft calls export` / `import` carry the media files calls refer to (issue 51, point 2), between two real servers over
// loopback HTTP on the run's store: each file once, before the first call referring to it, stored again by content in
// the target (another project), the calls' references resolving there; a file the source lacks is counted, not fatal.
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace/client';
import { newId } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { mediaRef, shortWav, storeFile, tinyPng } from 'weft-test-kit/media-files.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, type Json, query, start, startItem } from 'weft-test-kit/server-http.js';
import type { RunningServer } from '../../src/server/index.js';
import { exportCalls } from '../../src/cli/calls-export.js';
import { importCalls } from '../../src/cli/calls-import.js';
import { weftFilePath } from '../../src/media-ref.js';

const source = useTestServer();
let target: RunningServer;
let dir: string;

beforeAll(async () => {
  target = await startTestServer();
  dir = mkdtempSync(path.join(tmpdir(), 'weft-files-export-'));
});

afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A root call of `project` holding `inputs` and `output`. */
function call(project: string, inputs: Json, output: unknown): Json[] {
  const id = newId();
  return [startItem(start({ project_id: project, id, trace_id: newId(), started_at: new Date().toISOString(), inputs })), endItem(end(id, { project_id: project, output }))];
}

async function exportTo(file: string, project: string): Promise<void> {
  const client = new Client({ baseUrl: source().url });
  const out = createWriteStream(file);
  await once(out, 'open');
  try {
    await exportCalls(client, { project_id: project }, out, file);
  } finally {
    await client.close();
    await new Promise<void>((resolve) => out.end(resolve));
  }
}

describe('weft calls export / import with media files', () => {
  it('writes each file once before the first call referring to it, and an import stores them in the target project', async () => {
    const project = uniqueProject('export-files');
    const png = tinyPng(5, 5);
    const wav = shortWav(200);
    const [pngDigest, wavDigest] = [await storeFile(source().url, project, png), await storeFile(source().url, project, wav)];
    const pngRef = mediaRef('image/png', png, pngDigest, 'messages[0].content[0].image_url.url');
    const wavRef = mediaRef('audio/wav', wav, wavDigest, 'choices[0].message.audio.data');
    await batch(source(), [
      ...call(project, { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: pngRef } }] }] }, 'a cat'),
      ...call(project, { again: pngRef }, { choices: [{ message: { audio: { data: wavRef } } }] }),
      ...call(project, { plain: 'no media' }, 'ok'),
      ...call(project, { lost: mediaRef('image/png', png, 'NeverStored', 'x') }, null),
    ]);
    const file = path.join(dir, 'with-files.jsonl');
    await exportTo(file, project);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Json);
    expect(lines.map((l) => (l['_type'] === 'weft.file' ? `file ${String(l['digest'])}` : 'call'))).toEqual([`file ${pngDigest}`, 'call', `file ${wavDigest}`, 'call', 'call', 'call']);
    expect(Buffer.from(String(lines[0]!['content_base64']), 'base64')).toEqual(png);

    const moved = uniqueProject('import-files');
    const client = new Client({ baseUrl: target.url });
    try {
      expect(await importCalls(client, file, moved)).toBe(4);
      expect(await importCalls(client, file, moved)).toBe(4); // again: nothing stored twice
    } finally {
      await client.close();
    }
    expect((await query(target, { project_id: moved })).length).toBe(4);
    for (const [digest, bytes, type] of [[pngDigest, png, 'image/png'], [wavDigest, wav, 'audio/wav']] as const) {
      const res = await fetch(`${target.url}${weftFilePath(moved, digest, type)}`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, type]);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    }
  });

  it('refuses a file line whose bytes no longer match its digest, naming the line', async () => {
    const file = path.join(dir, 'altered.jsonl');
    writeFileSync(file, `${JSON.stringify({ _type: 'weft.file', project_id: 'acme/x', digest: 'NotTheDigest', size_bytes: 3, content_base64: 'YWJj' })}\n`);
    const client = new Client({ baseUrl: target.url });
    try {
      await expect(importCalls(client, file, uniqueProject('altered'))).rejects.toThrow(/altered\.jsonl:1: the file NotTheDigest was not stored: .*bytes were changed/);
    } finally {
      await client.close();
    }
  });
});
