// @weft-test: isolated runtime (a process's life: its exit, its first warnings, its spool and its memory)
// Child processes lose nothing: SIGTERM with handleSignals flushes first; an exit during an outage spools; SIGKILL while spooling loses at most unwritten events, the next process replays the rest; calls still running at exit end as WeftInterrupted.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../src/schema/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';
import { callIdsInSpool, segmentsIn } from 'weft-test-kit/spool-files.js';

const run = promisify(execFile);
const server = useTestServer();
const FIXTURE = 'test/fixtures/export-child.ts';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Spawns the fixture and resolves once it prints `line`; the caller ends it. */
async function spawnUntil(env: Record<string, string>, line: string, fixture = FIXTURE) {
  const child = spawnTracked(process.execPath, [await bundled(fixture)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(line)) resolve();
    });
    void exited.then(() => reject(new Error(`child exited before "${line}": ${err}`)));
  });
  return { child, ready, exited, stderr: () => err };
}

it('SIGTERM with handleSignals: the pending calls are sent, then the process dies of the signal', async () => {
  const project = uniqueProject('sigterm');
  const calls = 2_000;
  const p = await spawnUntil({ MODE: 'signal', CALLS: String(calls), WEFT_PROJECT: project, WEFT_BASE_URL: server().url }, 'ready');
  await p.ready;
  expect(await server().store.countRows(project)).toBe(0); // nothing sent yet: the interval is 10 minutes
  p.child.kill('SIGTERM');
  expect(await p.exited).toEqual({ code: null, signal: 'SIGTERM' }); // the default action still happened
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(calls);
  for (const r of records) {
    expectUuidv7(r.id);
    expectIsoUtc(r.ended_at);
  }
});

it('SIGKILL while spooling loses at most the unwritten events; the next process replays every written one', async () => {
  const project = uniqueProject('sigkill');
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-spool-'));
  dirs.push(spoolDir);
  const env = { WEFT_PROJECT: project, WEFT_SPOOL_DIR: spoolDir };
  const p = await spawnUntil({ ...env, MODE: 'spool-forever', CALLS: '2000', WEFT_BASE_URL: 'http://127.0.0.1:9' }, 'spooling');
  await p.ready;
  // Killed once more than 1,000 calls are on disk, whatever the machine's speed; the child is still writing then (and
  // renaming the segments it retries, so the reads while it runs skip a segment that moved)
  await vi.waitUntil(() => callIdsInSpool(spoolDir, { whileWritten: true }).size > 1_000, { timeout: 20_000, interval: 20 });
  p.child.kill('SIGKILL');
  expect((await p.exited).signal).toBe('SIGKILL');

  const written = callIdsInSpool(spoolDir);
  expect(written.size).toBeGreaterThan(1_000);
  const { stdout } = await run(process.execPath, [await bundled(FIXTURE)], {
    env: { ...process.env, ...env, MODE: 'replay', WEFT_BASE_URL: server().url },
    timeout: 30_000,
  });
  const { report } = JSON.parse(stdout) as { report: { sent: number; dropped: number } };
  expect(report.dropped).toBe(0);
  const stored = new Set((await readCalls(server().url, project)).map((r) => r.id));
  for (const id of written) expect(stored.has(id)).toBe(true);
  expect(segmentsIn(spoolDir)).toEqual([]); // every segment replayed and deleted
});

it('a process that ends normally while the server is down exits within exitTimeoutMs, its events spooled; the next one sends them', async () => {
  const project = uniqueProject('exit-spool');
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-spool-'));
  dirs.push(spoolDir);
  const calls = 300;
  const env = { ...process.env, WEFT_PROJECT: project, WEFT_SPOOL_DIR: spoolDir, CALLS: String(calls) };
  const { stdout } = await run(process.execPath, [await bundled('test/fixtures/exit-without-flush.ts')], {
    env: { ...env, WEFT_BASE_URL: 'http://127.0.0.1:9', WEFT_EXIT_TIMEOUT_MS: '500' }, // retry budget 30 s: only the exit deadline ends it
    timeout: 20_000,
  });
  expect(stdout).toContain(`ran ${calls}`);
  expect(callIdsInSpool(spoolDir).size).toBe(calls + 1);
  const replay = await run(process.execPath, [await bundled(FIXTURE)], { env: { ...env, MODE: 'replay', WEFT_BASE_URL: server().url }, timeout: 30_000 });
  expect((JSON.parse(replay.stdout) as { report: { dropped: number } }).report.dropped).toBe(0);
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(calls + 1);
  for (const r of records) {
    expectUuidv7(r.id);
    expectIsoUtc(r.ended_at);
  }
});

describe('calls still running when the process exits end as WeftInterrupted (issue 11 item 10)', () => {
  const OPEN = 'test/fixtures/open-calls-at-exit.ts';
  /** Reads the fixture's calls by op name once the child exited. */
  async function callsByName(project: string) {
    const records = await readCalls(server().url, project);
    expect(records.map((r) => r.op_name).sort()).toEqual(['child', 'child', 'done', 'tokens', 'waitsForever']);
    return (name: string) => records.find((r) => r.op_name === name)!;
  }
  function expectInterrupted(r: CallRecord, reason: string, counts: Record<string, number>) {
    expect(r.exception).toEqual({ type: 'WeftInterrupted', message: `process exited while the call was running (${reason})` });
    expectIsoUtc(r.ended_at);
    expect(r.summary?.status_counts).toEqual(counts);
  }

  it('beforeExit: a pending promise and an unread stream end as interrupted, sent in the exit flush', async () => {
    const project = uniqueProject('interrupt-exit');
    const { stdout } = await run(process.execPath, [await bundled(OPEN)], {
      env: { ...process.env, MODE: 'before-exit', WEFT_PROJECT: project, WEFT_BASE_URL: server().url },
      timeout: 20_000,
    });
    expect(stdout).toContain('ready');
    const byName = await callsByName(project);
    expectInterrupted(byName('waitsForever'), 'beforeExit', { success: 2, error: 0 });
    expectInterrupted(byName('tokens'), 'beforeExit', { success: 0, error: 0 });
    expect(byName('done').exception ?? undefined).toBeUndefined();
  });

  it('SIGTERM with handleSignals: the open calls end as interrupted (SIGTERM), then the process dies of the signal', async () => {
    const project = uniqueProject('interrupt-sigterm');
    const p = await spawnUntil({ MODE: 'signal', WEFT_PROJECT: project, WEFT_BASE_URL: server().url }, 'ready', OPEN);
    await p.ready;
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: null, signal: 'SIGTERM' });
    const byName = await callsByName(project);
    expectInterrupted(byName('waitsForever'), 'SIGTERM', { success: 2, error: 0 });
    expectInterrupted(byName('tokens'), 'SIGTERM', { success: 0, error: 0 });
  });

  it('SIGTERM with a listener of the program: weft only flushes, its calls are left to the program (then end at beforeExit or stay open)', async () => {
    const project = uniqueProject('interrupt-own');
    const p = await spawnUntil({ MODE: 'signal-own-listener', WEFT_PROJECT: project, WEFT_BASE_URL: server().url }, 'ready', OPEN);
    await p.ready;
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null }); // the program's own listener decided
    const records = await readCalls(server().url, project);
    expect(records.filter((r) => r.exception)).toEqual([]); // process.exit(): no beforeExit, nothing interrupted by weft
  });
});
