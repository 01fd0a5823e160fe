// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// Issue 37 point 3: nothing lost when the server is away for a while, and still no hang when there is none. A traced app of 1,206 calls (the SDK bundled into it) runs against a real server behind a loopback fault proxy that is down until 3 s after the app's last line or until its exit, then up; never up, or up then down at exit; the spool is the default one (under the child's TMPDIR), sent by the next run or `weft spool flush`. The spool courier's cases: server-away-courier.test.ts.
import path from 'node:path';
import { expect, it } from 'vitest';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { callIdsInSpool, segmentsIn } from 'weft-test-kit/spool-files.js';
import { CALLS, FOREVER_MS, finished, newTmp, proxy, quickest, runApp, runAppWhileDown, runsUntilQuickExit, spoolFlush, spoolNamed, startApp, stored, useServerAway, warnings } from 'weft-test-kit/server-away.js';

useServerAway();

it('down from the start of the app to 3 s after its last line, then up, for a server that answered an earlier run (a restart): the exit waits for it and it stores 1,206 of 1,206', async () => {
  const project = uniqueProject('restart');
  // exitTimeoutMs 20 s: a loaded machine runs the app for seconds while the server is down, so the retries' backoff
  // reaches its 8 s ceiling (retryMaxDelayMs), and the first retry after the server is up can come 3 + 8 s after the
  // app's last line, past the default 10 s
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp(), WEFT_EXIT_TIMEOUT_MS: '20000' };
  expect((await runApp({ ...env, ROOTS: '1' })).code).toBe(0); // the earlier run: the server answered it (3 calls)
  const { run: r, upAt } = await runAppWhileDown(env, 3_000); // down from the app's start to 3 s after its last line
  expect(r.code).toBe(0);
  expect(r.doneAt).toBeLessThan(upAt); // the app ended while the server was down
  expect(r.exitAt).toBeGreaterThanOrEqual(upAt); // and its exit waited for the server
  expect(r.exitAt - r.doneAt).toBeLessThan(20_000); // within exitTimeoutMs
  expect(warnings(r).filter((l) => l.includes('not sent'))).toEqual([]);
  expect(await stored(project)).toBe(3 + CALLS);
}, 60_000);

it('down until the app has exited, then up, for a server no run ever reached, the SDK bundled into the app (no courier): the app exits without waiting for it, its events spooled; the next run sends all 1,206', async () => {
  const project = uniqueProject('first-outage');
  const env = { WEFT_PROJECT: project, TMPDIR: newTmp() };
  proxy.inject({ kind: 'refuse' }, { forMs: FOREVER_MS }); // down until the app has exited (not for a set time: a loaded machine can take longer than that to run it)
  const r = await runApp(env);
  proxy.clear();
  expect(r.code).toBe(0);
  // no wait for the server: the 1 s bound is the never-up test's (the same exit path)
  const [line, ...more] = warnings(r).filter((l) => l.includes(`${2 * CALLS} event(s) not sent: every connection to ${proxy.url} was refused at exit`));
  expect(line).toContain('so weft did not wait exitTimeoutMs');
  expect(line).not.toContain('spool courier');
  expect(more).toEqual([]);
  expect(callIdsInSpool(spoolNamed(line!)).size).toBe(CALLS);
  expect((await runApp({ ...env, ROOTS: '1' })).code).toBe(0); // the next run, the server up: it replays the spool
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
