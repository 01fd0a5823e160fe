// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// Issue 37 point 3, the spool courier: the built SDK (`npm run build` first) hands a spool it gave up on at once to a detached process that sends it for up to exitTimeoutMs; against a real server behind a loopback fault proxy (packages/test-kit/src/server-away.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { whenGone } from 'weft-test-kit/child-processes.js';
import { callIdsInSpool, segmentsIn } from 'weft-test-kit/spool-files.js';
import { BUILT_APP, CALLS, FOREVER_MS, courierOf, finished, newTmp, proxy, quickest, runApp, runAppWhileDown, runsUntilQuickExit, spoolFlush, spoolNamed, startApp, stored, useServerAway, warnings } from 'weft-test-kit/server-away.js';

useServerAway();

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

// ---- the spool courier: the built SDK hands a spool it gave up on at once to a detached process, for exitTimeoutMs

it('courier: down until 3 s after the last line of the app, then up, for a server no run ever reached: the app exits at once, and within exitTimeoutMs the courier sends all 1,206 and remembers the server, with no next run', async () => {
  const project = uniqueProject('courier-outage');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  const { run: r, upAt } = await runAppWhileDown(env, 3_000, BUILT_APP); // down from the app's start to 3 s after its last line
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
    const runs = await runsUntilQuickExit(env, BUILT_APP, async (run, first) => {
      lines.push(warnings(run).find((l) => l.includes('not sent'))!);
      const courier = courierOf(lines.at(-1)!)!;
      if (!first) killQuietly(courier); // only the first run's courier is watched; the others would slow the next run
      gone.push(await whenGone(courier, 10_000));
    });
    expect(quickest(runs)).toBeLessThan(1_000);
    expect(gone[0]! - runs[0]!.exitAt).toBeLessThan(2_000 + 2_000); // exitTimeoutMs from the exit, and a margin
    const dir = spoolNamed(lines[0]!);
    expect(callIdsInSpool(dir).size).toBe(CALLS);
    expect(segmentsIn(dir).filter((n) => !n.endsWith('.jsonl'))).toEqual([]); // released, not left claimed; no lock
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
