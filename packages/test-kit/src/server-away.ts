// Shared by the server-away tests (issue 37 point 3): a traced app of 1,206 calls run as a child process against a real server behind a loopback fault proxy, its exit, and `weft spool flush`.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { useTestServer } from './server.js';
import { readCalls, uniqueProject } from './calls.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { spawnTracked, trackPid } from './child-processes.js';
import { bundled } from './ts-bundle.js';
/** The SDK bundled into the app (no spool courier beside it), and the built package as installed (`npm run build` first). */
export const APP = 'test/fixtures/server-away-app.ts';
export const BUILT_APP = 'test/fixtures/server-away-app-built.ts';
export const CALLS = 1_206;
/** Longer than any wait of these tests: a proxy "never up" stays down for the test. */
export const FOREVER_MS = 600_000;
let server: () => { url: string };
let current: FaultProxy | undefined;
const dirs: string[] = [];
let upTimer: NodeJS.Timeout | undefined;

/** The fault proxy in front of the file's server (started by {@link useServerAway}'s `beforeAll`). */
export const proxy = {
  get url(): string {
    return current!.url;
  },
  inject: (...args: Parameters<FaultProxy['inject']>) => current!.inject(...args),
  clear: () => current!.clear(),
};

/**
 * Call once at the top of a test file: a server of the file's own, the fault proxy in front of it, the apps bundled
 * before the first test (not inside a test's 3 s outage), and the temp dirs of {@link newTmp} removed after.
 */
export function useServerAway(): void {
  server = useTestServer();
  beforeAll(async () => {
    current = await startFaultProxy(server().url);
    await Promise.all([bundled(APP), bundled(BUILT_APP)]);
  });
  afterEach(() => {
    clearTimeout(upTimer);
    current?.clear();
  });
  afterAll(async () => {
    await current?.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

/**
 * A finished app: `doneAt` (its last line) and `exitingAt` (its last `exit` listener) on the app's clock, `exitAt`
 * when this process saw it exit (which a loaded machine delays by this process's own event-loop lag).
 */
export interface Exit { code: number | null; stdout: string; stderr: string; doneAt: number; exitingAt: number; exitAt: number }

/** Collects a child's output and the time it exited (this process's clock, as the app's `done <ms>`). */
export function finished(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      const exitAt = Date.now();
      const at = (what: string) => Number(new RegExp(`${what} (\\d+)`).exec(stdout)?.[1] ?? NaN);
      child.once('close', () => resolve({ code, stdout, stderr, exitAt, doneAt: at('done'), exitingAt: at('exiting') }));
    }),
  );
}

/** A test's own TMPDIR, so the default spool and the answered-marker start empty and are removed after. */
export function newTmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'weft-away-'));
  dirs.push(d);
  return d;
}

/** Starts the app against the proxy; `env` adds WEFT_PROJECT, TMPDIR and the like. */
export async function startApp(env: Record<string, string>, app = APP): Promise<ChildProcess> {
  return spawnTracked(process.execPath, [await bundled(app)], { env: { ...process.env, WEFT_BASE_URL: proxy.url, WEFT_LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

export async function runApp(env: Record<string, string>, app = APP): Promise<Exit> {
  const child = await startApp(env, app);
  child.stdin!.end();
  return finished(child);
}

/**
 * Runs the app with the server refused from its start until `upAfterDoneMs` after its last line (`done`), then up:
 * an outage that ends at a set time after the app's work, however long a loaded machine takes to run it. Returns the
 * run and when the server came up (this process's clock; the test's end clears a fault still pending).
 */
export async function runAppWhileDown(env: Record<string, string>, upAfterDoneMs: number, app = APP): Promise<{ run: Exit; upAt: number }> {
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS });
  let upAt = Infinity;
  const child = await startApp(env, app);
  const exited = finished(child);
  let out = ''; // the line may come split across chunks
  child.stdout!.on('data', (d: Buffer) => {
    if (upAt !== Infinity || !/done \d+\n/.test((out += d.toString()))) return;
    upAt = Date.now() + upAfterDoneMs;
    upTimer = setTimeout(() => proxy.clear(), upAfterDoneMs);
  });
  child.stdin!.end();
  const run = await exited;
  if (upAt === Infinity) proxy.clear(); // no `done`: the app failed; the test says how
  return { run, upAt };
}

/** Runs `weft spool flush` (the CLI from the sources) with `args`. */
export async function spoolFlush(env: Record<string, string>, args: string[] = []): Promise<Exit> {
  const child = spawnTracked(process.execPath, [await bundled('packages/weft-server/src/cli.ts'), 'spool', 'flush', '--base-url', proxy.url, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child);
}

/**
 * How long after its last line the app exited, on its own clock: what docs/tracing.md's "exits within 1 s of its last
 * line" is about; the test runner's own lag (a loaded machine) is not the app's.
 */
export const exitDelay = (r: Exit) => r.exitingAt - r.doneAt;

/**
 * Runs the app with a fresh project each time, until a run exits within 1 s of its last line ({@link exitDelay}; at
 * most 5 runs: a loaded machine can stretch one; an exit that waits for exitTimeoutMs, 10 s, fails all of them).
 * `after` is given each run and whether it is the first (e.g. to wait for or end the run's courier). Returns the runs.
 */
export async function runsUntilQuickExit(env: Record<string, string>, app = APP, after?: (run: Exit, first: boolean) => Promise<void>): Promise<Exit[]> {
  const runs: Exit[] = [];
  do {
    runs.push(await runApp({ ...env, WEFT_PROJECT: runs.length === 0 ? env.WEFT_PROJECT! : uniqueProject('again') }, app));
    await after?.(runs.at(-1)!, runs.length === 1);
  } while (runs.length < 5 && !(exitDelay(runs.at(-1)!) < 1_000));
  return runs;
}

export const quickest = (runs: Exit[]) => Math.min(...runs.map(exitDelay));

export const stored = async (project: string) => (await readCalls(server().url, project)).length;
export const warnings = (r: Exit) => r.stderr.split('\n').filter((l) => l.startsWith('[weft] warn'));
/** The spool directory the exit line names. */
export const spoolNamed = (line: string) => /in the spool (\S+): send them now/.exec(line)?.[1] as string;

/** The pid of the spool courier the exit line names (recorded for the teardown), or `undefined`. */
export function courierOf(line: string): number | undefined {
  const pid = Number(/spool courier, pid (\d+)\)/.exec(line)?.[1]);
  if (!pid) return undefined;
  trackPid(pid, `spool courier of ${spoolNamed(line)}`);
  return pid;
}
