/**
 * Vitest global setup: the Chromium the browser tests drive (`WEFT_CHROMIUM`, chromium.ts), a directory where tests
 * record the pids they spawn, a temp directory of the run's own (`TMPDIR`, so the SDK's default disk spools and
 * answered-markers under the OS temp directory neither outlive the run nor meet another run's on a reused port), and
 * a teardown that fails the run, naming them, when any of those process groups is still alive.
 * @module
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** The run's own temp directory, the OS one it is in, and how many setups of the run (one per vitest project) use it. */
const TEST_TMP_ENV = 'WEFT_TEST_TMPDIR';
const OS_TMP_ENV = 'WEFT_TEST_OS_TMPDIR';
const TMP_USERS_ENV = 'WEFT_TEST_TMPDIR_USERS';

/**
 * Makes the run's temp directory the `TMPDIR` of the workers and of every process they start (the first setup of the
 * run creates it: world-writable and sticky like /tmp, for the PostgreSQL cluster's own user); returns it.
 */
function useRunTmpDir(): string {
  let tmp = process.env[TEST_TMP_ENV];
  if (!tmp) {
    process.env[OS_TMP_ENV] = tmpdir();
    tmp = mkdtempSync(path.join(tmpdir(), 'weft-test-tmp-'));
    chmodSync(tmp, 0o1777);
    process.env[TEST_TMP_ENV] = tmp;
    process.env.TMPDIR = tmp;
  }
  process.env[TMP_USERS_ENV] = String(Number(process.env[TMP_USERS_ENV] ?? 0) + 1);
  return tmp;
}

/** The last setup of the run to tear down removes the run's temp directory (the PostgreSQL cluster lives in it). */
function releaseRunTmpDir(tmp: string): void {
  const users = Number(process.env[TMP_USERS_ENV] ?? 1) - 1;
  process.env[TMP_USERS_ENV] = String(users);
  if (users > 0) return;
  rmSync(tmp, { recursive: true, force: true });
  process.env.TMPDIR = process.env[OS_TMP_ENV] ?? tmpdir();
  delete process.env[TEST_TMP_ENV];
}

/** Records `WEFT_CHROMIUM` and `WEFT_TEST_PID_DIR` for the test workers; returns the teardown. */
export default async function setup(): Promise<() => Promise<void>> {
  process.env[CHROMIUM_ENV] = await resolveChromium();
  const dir = mkdtempSync(path.join(process.env[OS_TMP_ENV] ?? tmpdir(), 'weft-test-pids-'));
  process.env[PID_DIR_ENV] = dir;
  const tmp = useRunTmpDir();
  return async function teardown() {
    releaseRunTmpDir(tmp);
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
