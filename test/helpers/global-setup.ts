/**
 * Vitest global setup: the Chromium the browser tests drive (`WEFT_CHROMIUM`, chromium.ts), a directory where tests
 * record the pids they spawn, a temp directory of the run's own (`TMPDIR`, so the SDK's default disk spools and
 * answered-markers under the OS temp directory neither outlive the run nor meet another run's on a reused port), and
 * a teardown that fails the run, naming them, when any of those process groups is still alive.
 * @module
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PID_DIR_ENV } from './child-processes.js';
import { CHROMIUM_ENV, resolveChromium } from './chromium.js';

/**
 * Whether any process of the group led by `pid` is alive. Where `/proc` lists them, zombies (exited, left unreaped
 * by a container's init: a detached spool courier's parent is gone) do not count.
 */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let procs: string[];
  try {
    procs = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return true; // no /proc (macOS)
  }
  return procs.some((n) => {
    try {
      const [state, , pgrp] = readFileSync(`/proc/${n}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      return Number(pgrp) === pid && state !== 'Z';
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Records `WEFT_CHROMIUM` and `WEFT_TEST_PID_DIR` for the test workers; returns the teardown. */
export default async function setup(): Promise<() => Promise<void>> {
  process.env[CHROMIUM_ENV] = await resolveChromium();
  const dir = mkdtempSync(path.join(tmpdir(), 'weft-test-pids-'));
  process.env[PID_DIR_ENV] = dir;
  const tmp = mkdtempSync(path.join(tmpdir(), 'weft-test-tmp-'));
  process.env.TMPDIR = tmp; // os.tmpdir() of the workers and of every process they start
  return async function teardown() {
    rmSync(tmp, { recursive: true, force: true });
    const recorded = readdirSync(dir).flatMap((f) =>
      readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((line) => {
        const [pid, what] = line.split('\t');
        return { pid: Number(pid), what: what ?? '' };
      }),
    );
    await new Promise((r) => setTimeout(r, 200)); // a child just sent SIGTERM may still be exiting
    const survivors = recorded.filter((p) => groupAlive(p.pid));
    rmSync(dir, { recursive: true, force: true });
    if (survivors.length === 0) return;
    for (const p of survivors) {
      try {
        process.kill(-p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    process.exitCode = 1; // vitest reports an error thrown here but would still exit 0
    throw new Error(`child processes started by the tests were still running after the suite (now killed):\n${survivors.map((p) => `  pid ${p.pid}: ${p.what}`).join('\n')}`);
  };
}
