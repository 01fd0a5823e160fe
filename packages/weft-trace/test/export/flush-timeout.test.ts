// flush(timeoutMs): stops waiting at the deadline (batcher, exporter, spool replay), returns at once when done, and its timer never keeps a process alive.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '../../src/api/client.js';
import { Batcher } from '../../src/export/batcher.js';
import type { Entry } from '../../src/export/entry.js';
import { deliveryOf, type SendBatch } from 'weft-test-kit/batch-delivery.js';
import { DEFAULT_BATCHER_OPTIONS } from '../../src/export/export-options.js';
import { CallExporter } from '../../src/export/exporter.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const run = promisify(execFile);
const server = useTestServer();
const entry = (i: number): Entry => {
  const json = JSON.stringify({ id: `c${i}` });
  return { json, bytes: Buffer.byteLength(json) };
};
const never: SendBatch = () => new Promise(() => undefined);
const elapsed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** A TCP server that takes connections and never answers. */
let blackHole: { url: string; close: () => void };
beforeAll(async () => {
  const sockets: Socket[] = [];
  const srv = createServer((s) => { sockets.push(s); s.resume(); });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  blackHole = { url: `http://127.0.0.1:${port}`, close: () => { for (const s of sockets) s.destroy(); srv.close(); } };
});
afterAll(() => blackHole.close());

it('Batcher.flush(timeoutMs) stops waiting at the deadline and reports what is still pending', async () => {
  const batcher = new Batcher(deliveryOf(never), { ...DEFAULT_BATCHER_OPTIONS, maxBatchItems: 2 });
  for (let k = 0; k < 5; k++) batcher.offer(entry(k), false);
  let report: Awaited<ReturnType<Batcher['flush']>> | undefined;
  const ms = await elapsed(async () => { report = await batcher.flush(150); });
  expect(ms).toBeGreaterThanOrEqual(140); // it waited for the deadline; that it returned at all shows it stopped there
  expect(report).toEqual({ sent: 0, dropped: 0, pending: 5 });
  batcher.abandon();
});

/** A deadline far past the test's timeout: a flush that waited for it would fail the test by timing out. */
const BEYOND_TEST_TIMEOUT_MS = 600_000;

it('Batcher.flush(timeoutMs) resolves as soon as the events are sent, not at the deadline', async () => {
  const batcher = new Batcher(deliveryOf(async (b) => ({ sent: b.length, dropped: 0 })), DEFAULT_BATCHER_OPTIONS);
  for (let k = 0; k < 3; k++) batcher.offer(entry(k), false);
  await batcher.flush(BEYOND_TEST_TIMEOUT_MS);
  expect(batcher.report()).toEqual({ sent: 3, dropped: 0, pending: 0 });
});

it('CallExporter.flush(timeoutMs) gives up on a server that never answers at the deadline', async () => {
  const project = uniqueProject('flush-deadline');
  const exporter = new CallExporter({ client: new Client({ baseUrl: blackHole.url }), projectId: project, options: { maxRetries: 0 } });
  exporter.start({ project_id: project, id: 'a', trace_id: 'a', op_name: 'f', started_at: new Date().toISOString(), inputs: {}, attributes: {} });
  let pending = -1;
  const ms = await elapsed(async () => { pending = (await exporter.flush(200)).pending; });
  expect(ms).toBeGreaterThanOrEqual(190);
  expect(pending).toBe(1);
  exporter.abandon();
});

it('CallExporter.flush(timeoutMs) also bounds the wait for a spool replay in progress', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'weft-flush-spool-'));
  try {
    const start = { project_id: 'a/b', id: 'left', trace_id: 'left', op_name: 'f', started_at: new Date().toISOString(), inputs: {}, attributes: {} };
    // a segment an earlier process left: the exporter replays it at once, to a server that never answers
    writeFileSync(path.join(dir, '000000000000001-999999-000000000.jsonl'), `${JSON.stringify({ mode: 'start', req: { start } })}\n`);
    const exporter = new CallExporter({ client: new Client({ baseUrl: blackHole.url }), projectId: 'a/b', options: { spoolDir: dir, maxRetries: 0 } });
    const ms = await elapsed(() => exporter.flush(250));
    expect(ms).toBeGreaterThanOrEqual(240);
    exporter.abandon();
    await exporter.shutdown(1_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a flush that finishes early leaves no timer keeping the process alive', async () => {
  const project = uniqueProject('flush-exit');
  const env = { ...process.env, MODE: 'flush-early', FLUSH_TIMEOUT_MS: String(BEYOND_TEST_TIMEOUT_MS), WEFT_PROJECT: project, WEFT_BASE_URL: server().url };
  // a timer left for the deadline would hold the child past execFile's timeout, which kills it and fails the test
  const { stdout } = await run(process.execPath, [await bundled('test/fixtures/export-child.ts')], { env, timeout: 30_000 });
  expect(JSON.parse(stdout.trim())).toMatchObject({ sent: 2, pending: 0 });
  expect(await readCalls(server().url, project)).toHaveLength(1);
});
