// @weft-test: isolated (it reads the process-wide export counters, getExportStats)
// The disk spool: an outage past the retry budget turns drops into spooled events that are replayed in order once the server answers; segments are claimed once.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { flush, getExportStats, init, op } from '../../src/index.js';
import { Spool } from '../../src/export/spool.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startFaultProxy, type FaultProxy } from 'weft-test-kit/fault-proxy.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';
import { segmentsIn } from 'weft-test-kit/spool-files.js';

const run = promisify(execFile);
const server = useTestServer();
let proxy: FaultProxy;
const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'weft-spool-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
});
afterAll(async () => {
  await proxy.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

it('an outage longer than the retry budget spools instead of dropping; the events arrive once the server is back', async () => {
  const project = uniqueProject('spool-outage');
  const spoolDir = newDir();
  const before = getExportStats();
  proxy.inject({ kind: 'refuse' }, { forMs: 60_000 }); // until cleared below, once events were spooled (a fixed
  // outage could end before a loaded machine sent anything)
  init({ project, baseUrl: proxy.url, printViewerLink: false, spoolDir, flushIntervalMs: 20, retryBudgetMs: 100, retryInitialDelayMs: 10, retryMaxDelayMs: 100 });
  const f = op(function f(i: number) { return i; });
  for (let i = 0; i < 2_500; i++) f(i);
  const during = await flush();
  expect(during.dropped).toBe(0);
  expect(during.spooled).toBeGreaterThan(0);
  proxy.clear();
  const deadline = Date.now() + 20_000;
  let report = during;
  while ((report.spooled > 0 || report.pending > 0) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    report = await flush();
  }
  expect(report).toEqual({ sent: 5_000, dropped: 0, spooled: 0, pending: 0 });
  const after = getExportStats();
  expect(after.replayed - before.replayed).toBeGreaterThan(0);
  const records = await readCalls(server().url, project);
  expect(new Set(records.map((r) => r.id)).size).toBe(2_500);
  for (const r of records) {
    expectUuidv7(r.id);
    expectIsoUtc(r.ended_at);
  }
  expect(segmentsIn(spoolDir)).toEqual([]);
});

it('skips a torn last line and replays the complete ones', () => {
  const dir = newDir();
  const writer = new Spool(dir, 1 << 20);
  for (let i = 0; i < 3; i++) writer.append(JSON.stringify({ n: i }));
  writer.close();
  const [file] = readdirSync(dir);
  appendFileSync(path.join(dir, file as string), '{"n":3,"tor'); // a process killed mid-write
  const seg = new Spool(dir, 1 << 20).claim();
  expect(seg?.lines.map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([0, 1, 2]);
});

it('a failed spool write counts its events as dropped instead of losing them silently', () => {
  const dir = newDir();
  const spool = new Spool(dir, 1 << 20);
  rmSync(dir, { recursive: true }); // the directory vanishes under the writer, and a file takes its name
  writeFileSync(dir, '');
  const before = getExportStats().dropped.abandoned;
  expect(spool.append('{"n":1}')).toBe(true);
  spool.sync();
  expect(getExportStats().dropped.abandoned - before).toBe(1);
  expect(spool.backlog).toBe(0);
});

it('a segment claimed by one replayer cannot be claimed by another', () => {
  const dir = newDir();
  const writer = new Spool(dir, 1 << 20);
  writer.append('{"n":1}');
  writer.close();
  const first = new Spool(dir, 1 << 20).claim();
  expect(first?.lines).toEqual(['{"n":1}']);
  expect(new Spool(dir, 1 << 20).claim()).toBeUndefined();
});

it('two processes replaying the same spool directory replay each event once between them', async () => {
  const project = uniqueProject('spool-two');
  const dir = newDir();
  const start = (i: number) => ({
    mode: 'start',
    req: { start: { project_id: project, id: `c${i}`, trace_id: `c${i}`, op_name: 'f', started_at: new Date().toISOString(), inputs: {}, attributes: {} } },
  });
  const EVENTS = 4_000;
  for (let s = 0; s < 20; s++) {
    const writer = new Spool(dir, 1 << 30); // 20 segments of 200 events
    for (let i = s * 200; i < (s + 1) * 200; i++) writer.append(JSON.stringify(start(i)));
    writer.close();
  }
  const env = { ...process.env, MODE: 'replay', WEFT_PROJECT: project, WEFT_SPOOL_DIR: dir, WEFT_BASE_URL: server().url, WEFT_MAX_BATCH_ITEMS: '50' };
  const child = await bundled('test/fixtures/export-child.ts');
  const outs = await Promise.all([0, 1].map(() => run(process.execPath, [child], { env, timeout: 30_000 })));
  const replayed = outs.map(({ stdout }) => (JSON.parse(stdout) as { stats: { replayed: number } }).stats.replayed);
  expect(replayed[0]! + replayed[1]!).toBe(EVENTS);
  expect(await server().store.countRows(project)).toBe(EVENTS);
  expect(segmentsIn(dir)).toEqual([]);
});

it('a replay cut off mid-segment goes on after the batches the server took: each event is sent and counted once', async () => {
  const project = uniqueProject('spool-resume');
  const spoolDir = newDir();
  const writer = new Spool(spoolDir, 64 << 20);
  const N = 2_000;
  for (let i = 0; i < N; i++) {
    const id = `0190a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const start = { project_id: project, id, trace_id: id, op_name: 'spooled', started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(), attributes: {}, inputs: { i } };
    writer.append(JSON.stringify({ mode: 'start', req: { start } }));
  }
  writer.close(); // as left by an earlier process
  const before = getExportStats();
  proxy.inject({ kind: 'status', status: 503 }, { ratio: 0.5 }); // every other request fails
  init({ project, baseUrl: proxy.url, printViewerLink: false, spoolDir, maxBatchItems: 250, maxRetries: 0, retryMaxDelayMs: 20, flushIntervalMs: 20 });
  const deadline = Date.now() + 20_000;
  while (segmentsIn(spoolDir).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    await flush();
  }
  proxy.clear();
  expect(segmentsIn(spoolDir)).toEqual([]);
  expect(proxy.counts.faulted).toBeGreaterThan(0);
  expect(getExportStats().replayed - before.replayed).toBe(N); // not more: taken batches were not sent again
  expect(await server().store.countRows(project)).toBe(N);
});
