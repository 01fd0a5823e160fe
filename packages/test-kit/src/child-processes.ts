/**
 * Test helper: spawns child processes the suite keeps track of (each leads its own process group, its pid recorded) so the global teardown can fail when one outlives the suite.
 * @module
 */
import { appendFileSync } from 'node:fs';
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { isAlive } from 'weft-trace/src/export/spool.js';

/** Environment variable naming the directory where spawned pids are recorded (set by `global-setup.ts`). */
export const PID_DIR_ENV = 'WEFT_TEST_PID_DIR';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The built CLI (`npm test` builds before vitest runs): run by `node` itself, so no wrapper process can be left behind. */
export const BUILT_CLI = path.join(ROOT, 'packages', 'weft-trace', 'dist', 'cli.js');

/**
 * Spawns `command` as the leader of a new process group and records its pid, so the suite's teardown
 * finds it (or any process it started) if it is still running. End it with {@link killGroup} or its own signals.
 */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const dir = process.env[PID_DIR_ENV];
  if (dir && child.pid !== undefined) {
    appendFileSync(path.join(dir, `${process.pid}.pids`), `${child.pid}\t${[command, ...args].join(' ').slice(0, 200)}\n`);
  }
  return child;
}

/** Spawns `node dist/cli.js <args>` (e.g. `serve --port 0`), tracked, from the repository root. */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawnTracked(process.execPath, [BUILT_CLI, ...args], { cwd: ROOT, ...options });
}

/** Sends `signal` to the child's whole process group (the child and anything it started); a group already gone is fine. */
/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `weft` CLI to its end (`NO_COLOR=1`, plus `env`) and answers its exit code and output. */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const child = spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: nothing left in the group
  }
}

/** Records `pid`, a process the code under test started (the spool courier), so the teardown fails when it outlives the suite. */
export function trackPid(pid: number, what: string): void {
  const dir = process.env[PID_DIR_ENV];
  if (dir) appendFileSync(path.join(dir, `${process.pid}.pids`), `${pid}\t${what}\n`);
}

/** Resolves with the time (epoch ms) process `pid` was seen gone (a zombie counts as gone), polling every 50 ms; rejects after `timeoutMs`. */
export async function whenGone(pid: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive(pid)) return Date.now();
    if (Date.now() > until) throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
