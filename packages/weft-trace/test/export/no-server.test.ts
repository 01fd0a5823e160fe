// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// The quick start with nothing listening at the base URL (issue 24 item 1, issue 37 point 3): one warning at the first failed send naming the URL, the cause and the hint; at exit, no wait for exitTimeoutMs, one line saying how many events were not sent, where they went (the default spool) and how to send them.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const run = promisify(execFile);
const FIXTURE = 'test/fixtures/quickstart-no-server.ts';
let url: string;
const dirs: string[] = [];

beforeAll(async () => {
  // a port that was just free: nothing listens there, so every connection is refused
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Counters { retried: number; dropped: Record<string, number>; spooled: number }

async function quickstart(env: Record<string, string>): Promise<{ stderr: string[]; counters: Counters }> {
  const { stdout, stderr } = await run(process.execPath, [await bundled(FIXTURE)], {
    env: { ...process.env, WEFT_BASE_URL: url, WEFT_LOG_LEVEL: 'warn', ...env },
    timeout: 30_000,
  });
  return { stderr: stderr.split('\n').filter((l) => l.startsWith('[weft]')), counters: JSON.parse(stdout.trim().split('\n').at(-1)!) as Counters };
}

it('with the spool off: warns once at the first failed send with the URL, ECONNREFUSED and the hint; at exit drops the 4 events at once, saying why', async () => {
  const { stderr, counters } = await quickstart({ WEFT_SPOOL_DIR: 'off' });
  const first = stderr.filter((l) => l.includes('is weft serve running?'));
  expect(first).toHaveLength(1);
  expect(first[0]).toContain(`cannot reach ${url}`);
  expect(first[0]).toContain('ECONNREFUSED');
  expect(first[0]).toContain('the spool is off');
  expect(stderr.join('\n')).not.toContain('ms (exitTimeoutMs)'); // not "... within 10000 ms (exitTimeoutMs)"
  const exit = stderr.filter((l) => l.includes('dropped 4 event(s) (abandoned)'));
  expect(exit).toHaveLength(1);
  expect(exit[0]).toContain(`every connection to ${url} was refused at exit`);
  // one attempt, one retry scheduled and cut short: no retry wait was sat through
  expect(counters.retried).toBe(1);
  expect(counters.dropped.abandoned).toBe(4);
});

it('by default, the 4 events go at once to the spool under the temp directory; the one exit line names it and says how to send them', async () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'weft-no-server-tmp-'));
  dirs.push(tmp);
  const { stderr, counters } = await quickstart({ TMPDIR: tmp });
  const exit = stderr.filter((l) => l.includes('4 event(s) not sent'));
  expect(exit).toHaveLength(1);
  expect(exit[0]).toContain(`every connection to ${url} was refused at exit`);
  expect(exit[0]).toMatch(new RegExp(`in the spool ${tmp}/weft-spool-\\d+/127\\.0\\.0\\.1_\\d+-acme_quickstart-[0-9a-f]{8}: send them now with \`npx weft spool flush --base-url ${url} --project acme/quickstart\`, or run the app again with the server up`));
  expect(counters.retried).toBe(1);
  expect(counters.spooled).toBe(4);
  expect(Object.values(counters.dropped).reduce((a, b) => a + b, 0)).toBe(0);
});

it('with a spool directory given, the 4 events go to it at once and the exit line names it', async () => {
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-no-server-'));
  dirs.push(spoolDir);
  const { stderr, counters } = await quickstart({ WEFT_SPOOL_DIR: spoolDir });
  expect(stderr.filter((l) => l.includes('is weft serve running?'))).toHaveLength(1);
  const exit = stderr.filter((l) => l.includes('4 event(s) not sent'));
  expect(exit).toHaveLength(1);
  expect(exit[0]).toContain(`every connection to ${url} was refused`);
  expect(exit[0]).toContain(`in the spool ${spoolDir}: send them now with \`npx weft spool flush --base-url ${url} --dir ${spoolDir}\``);
  expect(counters.retried).toBe(1);
  expect(counters.spooled).toBe(4);
  expect(readdirSync(spoolDir).length).toBeGreaterThan(0);
});
