// The exporter against a real server: invalid events are left out alone, and re-init keeps running calls' ends.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { Client } from '../../src/api/client.js';
import { CallExporter } from '../../src/export/exporter.js';
import { flush, init, op } from '../../src/index.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const server = useTestServer();
const run = promisify(execFile);

const startEvent = (project: string, id: string, opName = 'f') => ({
  project_id: project,
  id,
  trace_id: id,
  op_name: opName,
  started_at: new Date().toISOString(),
  inputs: {},
  attributes: {},
});

it('leaves out only the invalid events of a batch and sends the rest', async () => {
  const project = uniqueProject('invalid');
  const options = { maxBatchItems: 100, flushIntervalMs: 1000, maxConcurrentRequests: 1, maxQueueItems: 1000 };
  const exporter = new CallExporter({ client: new Client({ baseUrl: server().url }), projectId: project, options: options });
  exporter.start(startEvent(project, 'ok-1'));
  exporter.start(startEvent(project, 'bad', '')); // op_name must not be empty
  exporter.start(startEvent(project, 'ok-2'));
  expect(await exporter.flush()).toEqual({ sent: 2, dropped: 1, spooled: 0, pending: 0 });
  expect((await readCalls(server().url, project)).map((c) => c.id)).toEqual(['ok-1', 'ok-2']);
});

it('a second init() does not lose the end of a call started under the first', async () => {
  const first = uniqueProject('reinit-a');
  const second = uniqueProject('reinit-b');
  init({ project: first, baseUrl: server().url });
  let release!: () => void;
  const slow = op(async function slow() {
    await new Promise<void>((r) => { release = r; });
    return 'done';
  });
  const pending = slow();
  init({ project: second, baseUrl: server().url });
  release();
  expect(await pending).toBe('done');
  await flush();
  const [call] = await readCalls(server().url, first);
  expectUuidv7(call?.id);
  expectIsoUtc(call?.started_at);
  expectIsoUtc(call?.ended_at);
  expect(call?.output).toBe('done');
});

it('gives up at exit after exitTimeoutMs when the server never answers, instead of hanging', async () => {
  const sockets: Socket[] = [];
  const blackHole = createServer((s) => { sockets.push(s); s.resume(); });
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  const { port } = blackHole.address() as AddressInfo;
  try {
    const { stdout, stderr } = await run(process.execPath, [await bundled('test/fixtures/exit-without-flush.ts')], {
      env: { ...process.env, WEFT_BASE_URL: `http://127.0.0.1:${port}`, WEFT_PROJECT: 'a/b', CALLS: '3', WEFT_EXIT_TIMEOUT_MS: '300', WEFT_SPOOL_DIR: 'off' },
      timeout: 20_000,
    });
    expect(stdout).toContain('ran 3');
    expect(stderr).toMatch(/dropped \d+ event\(s\) \(abandoned\): the server did not take them at exit within 300 ms \(exitTimeoutMs\)/);
  } finally {
    for (const s of sockets) s.destroy();
    blackHole.close();
  }
});

it('splits a batch the server refuses as too large (413) and sends the halves', async () => {
  const small = await startTestServer({ maxBodyBytes: 64 * 1024 });
  try {
    const project = uniqueProject('split');
    const options = { maxBatchItems: 100, flushIntervalMs: 1000, maxConcurrentRequests: 1, maxQueueItems: 1000 };
    const exporter = new CallExporter({ client: new Client({ baseUrl: small.url }), projectId: project, options: options });
    const pad = 'x'.repeat(5_000);
    for (let i = 0; i < 40; i++) exporter.start({ ...startEvent(project, `c${String(i).padStart(2, '0')}`), inputs: { pad } });
    expect(await exporter.flush()).toEqual({ sent: 40, dropped: 0, spooled: 0, pending: 0 });
    expect(await readCalls(small.url, project)).toHaveLength(40);
  } finally {
    await small.close();
  }
});
