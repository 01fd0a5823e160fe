// Issue 37 point 3: nothing lost when the server is away for a while, and still no hang when there is none. A traced app of 1,206 calls runs as a child process against a real server behind a loopback fault proxy that is down 3 s then up, never up, or up then down at exit; the spool is the default one (under the child's TMPDIR), sent by the spool courier (the built SDK, after `npm run build`), the next run or `weft spool flush`.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestServer } from '../helpers/server.js';
import { readCalls, uniqueProject } from '../helpers/calls.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { spawnTracked, trackPid, whenGone } from '../helpers/child-processes.js';
import { bundled } from '../helpers/ts-bundle.js';
import { callIdsInSpool, segmentsIn } from '../helpers/spool-files.js';

/** The SDK bundled into the app (no spool courier beside it), and the built package as installed (`npm run build` first). */
const APP = 'test/fixtures/server-away-app.ts';
const BUILT_APP = 'test/fixtures/server-away-app-built.ts';
const CALLS = 1_206;
/** Longer than any wait of these tests: a proxy "never up" stays down for the test. */
const FOREVER_MS = 600_000;
const server = useTestServer();
let proxy: FaultProxy;
const dirs: string[] = [];

beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
  await Promise.all([bundled(APP), bundled(BUILT_APP)]); // not inside a test's 3 s outage
});
afterAll(async () => {
  await proxy.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Exit { code: number | null; stdout: string; stderr: string; doneAt: number; exitAt: number }

/** Collects a child's output and the time it exited (this process's clock, as the app's `done <ms>`). */
function finished(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      const exitAt = Date.now();
      child.once('close', () => resolve({ code, stdout, stderr, exitAt, doneAt: Number(/done (\d+)/.exec(stdout)?.[1] ?? NaN) }));
    }),
  );
}

/** A test's own TMPDIR, so the default spool and the answered-marker start empty and are removed after. */
function newTmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'weft-away-'));
  dirs.push(d);
  return d;
}

/** Starts the app against the proxy; `env` adds WEFT_PROJECT, TMPDIR and the like. */
async function startApp(env: Record<string, string>, app = APP): Promise<ChildProcess> {
  return spawnTracked(process.execPath, [await bundled(app)], { env: { ...process.env, WEFT_BASE_URL: proxy.url, WEFT_LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

async function runApp(env: Record<string, string>, app = APP): Promise<Exit> {
  const child = await startApp(env, app);
  child.stdin!.end();
  return finished(child);
}

/** Runs `weft spool flush` (the CLI from the sources) with `args`. */
async function spoolFlush(env: Record<string, string>, args: string[] = []): Promise<Exit> {
  const child = spawnTracked(process.execPath, [await bundled('src/cli.ts'), 'spool', 'flush', '--base-url', proxy.url, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child);
}

/**
 * Runs the app with a fresh project each time, until a run exits within 1 s of its last line (at most 3 runs: a
 * loaded machine can stretch one; an exit that waits for exitTimeoutMs, 10 s, fails all three). Returns the runs.
 */
async function runsUntilQuickExit(env: Record<string, string>, app = APP, after?: (run: Exit) => Promise<void>): Promise<Exit[]> {
  const runs: Exit[] = [];
  do {
    runs.push(await runApp({ ...env, WEFT_PROJECT: runs.length === 0 ? env.WEFT_PROJECT! : uniqueProject('again') }, app));
    await after?.(runs.at(-1)!); // e.g. waits for the run's courier, so it does not slow the next run
  } while (runs.length < 3 && runs.at(-1)!.exitAt - runs.at(-1)!.doneAt >= 1_000);
  return runs;
}

const quickest = (runs: Exit[]) => Math.min(...runs.map((r) => r.exitAt - r.doneAt));

const stored = async (project: string) => (await readCalls(server().url, project)).length;
const warnings = (r: Exit) => r.stderr.split('\n').filter((l) => l.startsWith('[weft] warn'));
/** The spool directory the exit line names. */
const spoolNamed = (line: string) => /in the spool (\S+): send them now/.exec(line)?.[1] as string;

it('down 3 s then up, for a server that answered an earlier run (a restart): the exit waits for it and it stores 1,206 of 1,206', async () => {
  const project = uniqueProject('restart');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  expect((await runApp({ ...env, ROOTS: '1' })).code).toBe(0); // the earlier run: the server answered it (3 calls)
  proxy.inject({ kind: 'refuse' }, { forMs: 3_000 });
  const upAt = Date.now() + 3_000;
  const r = await runApp(env);
  expect(r.code).toBe(0);
  expect(r.doneAt).toBeLessThan(upAt); // the app ended while the server was down
  expect(r.exitAt).toBeGreaterThanOrEqual(upAt); // and its exit waited for the server
  expect(r.exitAt - r.doneAt).toBeLessThan(10_000); // within exitTimeoutMs
  expect(warnings(r).filter((l) => l.includes('not sent'))).toEqual([]);
  expect(await stored(project)).toBe(3 + CALLS);
});

it('down 3 s then up, for a server no run ever reached, the SDK bundled into the app (no courier): the app exits without waiting for it, its events spooled; the next run sends all 1,206', async () => {
  const project = uniqueProject('first-outage');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  proxy.inject({ kind: 'refuse' }, { forMs: 3_000 });
  const r = await runApp(env);
  expect(r.code).toBe(0);
  // no wait for the server: the 1 s bound is the never-up test's (the same exit path)
  const [line, ...more] = warnings(r).filter((l) => l.includes(`${2 * CALLS} event(s) not sent: every connection to ${proxy.url} was refused at exit`));
  expect(line).toContain('so weft did not wait exitTimeoutMs');
  expect(line).not.toContain('spool courier');
  expect(more).toEqual([]);
  expect(callIdsInSpool(spoolNamed(line!)).size).toBe(CALLS);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, r.exitAt + 3_100 - Date.now()))); // the proxy is up again
  expect((await runApp({ ...env, ROOTS: '1' })).code).toBe(0); // the next run replays the spool
  expect(await stored(project)).toBe(CALLS + 3);
  expect(segmentsIn(spoolNamed(line!))).toEqual([]);
});

it('never up: the app exits within 1 s of its last line; the one exit line names the spool and `weft spool flush`, which sends all 1,206 once the server is up', async () => {
  const project = uniqueProject('never-up');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  try {
    const runs = await runsUntilQuickExit(env);
    expect(quickest(runs)).toBeLessThan(1_000);
    const r = runs[0]!;
    expect(r.code).toBe(0);
    const exit = warnings(r).filter((l) => l.includes('not sent'));
    expect(exit).toHaveLength(1);
    expect(exit[0]).toContain(`${2 * CALLS} event(s) not sent: every connection to ${proxy.url} was refused at exit`);
    expect(exit[0]).toContain(`send them now with \`npx weft spool flush --base-url ${proxy.url} --project ${project}\`, or run the app again with the server up`);
    const dir = spoolNamed(exit[0]!);
    expect(dir.startsWith(`${env.TMPDIR}${path.sep}weft-spool`)).toBe(true);
    expect(callIdsInSpool(dir).size).toBe(CALLS);

    const down = await spoolFlush(env, ['--project', project]);
    expect(down.code).toBe(1); // still down: nothing sent, the events stay
    expect(down.stderr).toContain(`they stay in ${dir}`);
    expect(callIdsInSpool(dir).size).toBe(CALLS);
  } finally {
    proxy.clear();
  }
  const up = await spoolFlush(env, ['--project', project]);
  expect(up.code).toBe(0);
  expect(up.stdout.trim()).toMatch(new RegExp(`^sent ${2 * CALLS} event\\(s\\) from \\S+ to ${proxy.url}$`));
  expect(await stored(project)).toBe(CALLS);
});

it('up then down at exit: the exit waits exitTimeoutMs, then spools the rest with one line saying where; `weft spool flush --dir` sends them', async () => {
  const project = uniqueProject('down-at-exit');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), PAUSE: '1', WEFT_EXIT_TIMEOUT_MS: '1500' };
  const child = await startApp(env);
  const exited = finished(child);
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('half') && resolve()));
  expect(await stored(project)).toBe(CALLS / 2);
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  try {
    child.stdin!.end();
    const r = await exited;
    expect(r.code).toBe(0);
    expect(r.exitAt - r.doneAt).toBeGreaterThanOrEqual(1_400); // the server answered this run: a restart is waited for
    expect(r.exitAt - r.doneAt).toBeLessThan(1_500 + 1_500);
    const exit = warnings(r).filter((l) => l.includes('not sent'));
    expect(exit).toHaveLength(1);
    expect(exit[0]).toContain(`${CALLS} event(s) not sent: the server did not take them at exit within 1500 ms (exitTimeoutMs); they are in the spool`);
    expect(callIdsInSpool(spoolNamed(exit[0]!)).size).toBe(CALLS / 2);
    proxy.clear();
    const up = await spoolFlush(env, ['--dir', spoolNamed(exit[0]!)]);
    expect(up.code).toBe(0);
    expect(up.stdout).toContain(`sent ${CALLS} event(s)`);
  } finally {
    proxy.clear();
  }
  expect(await stored(project)).toBe(CALLS);
});

it('up then down for 2 s at exit: the exit waits, and the server stores 1,206 of 1,206', async () => {
  const project = uniqueProject('blip-at-exit');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), PAUSE: '1' };
  const child = await startApp(env);
  const exited = finished(child);
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('half') && resolve()));
  proxy.inject({ kind: 'refuse' }, { forMs: 2_000 });
  child.stdin!.end();
  const r = await exited;
  expect(r.code).toBe(0);
  expect(warnings(r).filter((l) => l.includes('not sent'))).toEqual([]);
  expect(await stored(project)).toBe(CALLS);
});

it('a known server that stays down: the first exit waits exitTimeoutMs in vain and forgets it, so the next run does not wait', async () => {
  const project = uniqueProject('gone');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), ROOTS: '10', WEFT_EXIT_TIMEOUT_MS: '1500' };
  expect((await runApp(env)).code).toBe(0); // answered: the marker is written
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  try {
    const waited = await runApp(env);
    expect(waited.exitAt - waited.doneAt).toBeGreaterThanOrEqual(1_400);
    expect(warnings(waited).join('\n')).toContain('60 event(s) not sent: the server did not take them at exit within 1500 ms (exitTimeoutMs)');
    const runs = await runsUntilQuickExit(env);
    expect(quickest(runs)).toBeLessThan(1_000);
    expect(warnings(runs[0]!).join('\n')).toContain(`was refused at exit`);
  } finally {
    proxy.clear();
  }
  expect(await stored(project)).toBe(30); // the first run's; the spool holds the others
});

// ---- the spool courier: the built SDK hands a spool it gave up on at once to a detached process, for exitTimeoutMs

/** The pid of the spool courier the exit line names (recorded for the teardown), or `undefined`. */
function courierOf(line: string): number | undefined {
  const pid = Number(/spool courier, pid (\d+)\)/.exec(line)?.[1]);
  if (!pid) return undefined;
  trackPid(pid, `spool courier of ${spoolNamed(line)}`);
  return pid;
}

it('courier: down 3 s then up, for a server no run ever reached: the app exits at once, and within exitTimeoutMs the courier sends all 1,206 and remembers the server, with no next run', async () => {
  const project = uniqueProject('courier-outage');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  proxy.inject({ kind: 'refuse' }, { forMs: 3_000 });
  const upAt = Date.now() + 3_000;
  const r = await runApp(env, BUILT_APP);
  expect(r.code).toBe(0);
  const [line, ...more] = warnings(r).filter((l) => l.includes('not sent'));
  expect(more).toEqual([]);
  expect(line).toContain(`${2 * CALLS} event(s) not sent: every connection to ${proxy.url} was refused at exit`);
  expect(line).toContain('so weft did not wait exitTimeoutMs');
  expect(line).toContain('tries to send them for up to 10000 ms (exitTimeoutMs)');
  expect(r.exitAt - r.doneAt).toBeLessThan(3_000); // no wait for the server (the 1 s bound: the never-up test's)
  const courier = courierOf(line!)!;
  expect(courier).toBeGreaterThan(0);
  const goneAt = await whenGone(courier, 15_000);
  expect(goneAt).toBeGreaterThan(upAt); // it outlived the outage
  expect(goneAt - r.exitAt).toBeLessThan(10_000 + 2_000); // and ended within exitTimeoutMs (and a margin)
  expect(await stored(project)).toBe(CALLS);
  const dir = spoolNamed(line!);
  expect(segmentsIn(dir)).toEqual([]); // sent, and the lock is gone
  expect(readdirSync(path.dirname(dir)).filter((n) => n.startsWith('answered-'))).toHaveLength(1);
});

it('courier: never up: the app exits within 1 s of its last line, the courier gives up at the deadline and leaves every event in the spool, and `weft spool flush` sends them', async () => {
  const project = uniqueProject('courier-never');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), WEFT_EXIT_TIMEOUT_MS: '2000' };
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  try {
    const lines: string[] = [];
    const gone: number[] = [];
    const runs = await runsUntilQuickExit(env, BUILT_APP, async (run) => {
      lines.push(warnings(run).find((l) => l.includes('not sent'))!);
      gone.push(await whenGone(courierOf(lines.at(-1)!)!, 10_000));
    });
    expect(quickest(runs)).toBeLessThan(1_000);
    expect(gone[0]! - runs[0]!.exitAt).toBeLessThan(2_000 + 2_000); // exitTimeoutMs from the exit, and a margin
    const dir = spoolNamed(lines[0]!);
    expect(callIdsInSpool(dir).size).toBe(CALLS);
    expect(segmentsIn(dir).every((n) => n.endsWith('.jsonl'))).toBe(true); // released, not left claimed; no lock
    expect(readdirSync(path.dirname(dir)).filter((n) => n.startsWith('answered-'))).toEqual([]);
  } finally {
    proxy.clear();
  }
  const up = await spoolFlush(env, ['--project', project]);
  expect(up.code).toBe(0);
  expect(await stored(project)).toBe(CALLS);
});

it('courier: not started when the server answered during the run (then down at exit: the exit waits for it instead), nor with WEFT_SPOOL_COURIER=off', async () => {
  const project = uniqueProject('courier-known');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), PAUSE: '1', WEFT_EXIT_TIMEOUT_MS: '1500' };
  const child = await startApp(env, BUILT_APP);
  const exited = finished(child);
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('half') && resolve()));
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  try {
    child.stdin!.end();
    const r = await exited;
    const [line] = warnings(r).filter((l) => l.includes('not sent'));
    expect(line).toContain('the server did not take them at exit within 1500 ms (exitTimeoutMs)');
    expect(line).not.toContain('spool courier');
    expect(existsSync(path.join(spoolNamed(line!), 'courier.pid'))).toBe(false);

    const off = await runApp({ WEFT_PROJECT: uniqueProject('courier-off'), TMPDIR: newTmp(), WEFT_SPOOL_COURIER: 'off' }, BUILT_APP);
    const [offLine] = warnings(off).filter((l) => l.includes('not sent'));
    expect(offLine).toContain('so weft did not wait exitTimeoutMs');
    expect(offLine).not.toContain('spool courier');
    expect(existsSync(path.join(spoolNamed(offLine!), 'courier.pid'))).toBe(false);
  } finally {
    proxy.clear();
  }
});
