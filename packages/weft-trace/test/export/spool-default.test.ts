// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// The default disk spool (issue 37 point 3): a directory under the OS temp directory keyed by base URL and project, created only when something is written (a run that sends everything leaves only the service's answered-marker); `spoolDir: false` leaves nothing; `weft spool flush` needs a project or a directory.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import { flush, init, op, shutdown } from '../../src/index.js';
import { defaultSpoolDir, flushCommand, resolveSpoolDir } from '../../src/export/spool-location.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const run = promisify(execFile);
const server = useTestServer();
const dirs: string[] = [];
const realTmp = process.env.TMPDIR;
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'weft-default-spool-'));
  dirs.push(tmp);
  process.env.TMPDIR = tmp; // os.tmpdir() reads it at each call
});
afterEach(async () => {
  await shutdown();
  if (realTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = realTmp;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const root = () => path.join(tmp, `weft-spool-${process.getuid!()}`);

it('is keyed by base URL and project under the temp directory, the same however the URL is written', () => {
  const dir = defaultSpoolDir('http://127.0.0.1:6345', 'acme/demo')!;
  expect(path.dirname(dir)).toBe(root());
  expect(path.basename(dir)).toMatch(/^127\.0\.0\.1_6345-acme_demo-[0-9a-f]{8}$/);
  expect(defaultSpoolDir('http://127.0.0.1:6345/', 'acme/demo')).toBe(dir);
  expect(defaultSpoolDir('http://127.0.0.1:6346', 'acme/demo')).not.toBe(dir);
  expect(defaultSpoolDir('https://127.0.0.1:6345', 'acme/demo')).not.toBe(dir);
  expect(defaultSpoolDir('http://127.0.0.1:6345', 'acme/demo2')).not.toBe(dir);
  expect(resolveSpoolDir(undefined, 'http://127.0.0.1:6345', 'acme/demo')).toBe(dir);
  expect(resolveSpoolDir(false, 'http://127.0.0.1:6345', 'acme/demo')).toBeUndefined();
  expect(resolveSpoolDir('/var/spool/weft', 'http://127.0.0.1:6345', 'acme/demo')).toBe('/var/spool/weft');
});

it('the exit line names the command that sends it: --project for the default directory, --dir for another', () => {
  const url = 'http://127.0.0.1:6345';
  expect(flushCommand(defaultSpoolDir(url, 'acme/demo')!, url, 'acme/demo')).toBe(`npx weft spool flush --base-url ${url} --project acme/demo`);
  expect(flushCommand('/var/spool/weft', url, 'acme/demo')).toBe(`npx weft spool flush --base-url ${url} --dir /var/spool/weft`);
  expect(flushCommand("/tmp/it's here", url, 'acme/demo')).toBe(`npx weft spool flush --base-url ${url} --dir '/tmp/it'\\''s here'`);
});

it('a run that sends everything creates no spool directory, only the marker that the service answered', async () => {
  const project = uniqueProject('no-spool-dir');
  init({ project, baseUrl: server().url, printViewerLink: false });
  const f = op(async function f(i: number) { return i; });
  for (let i = 0; i < 50; i++) await f(i);
  expect(await flush()).toMatchObject({ sent: 100, spooled: 0, dropped: 0 });
  await vi.waitUntil(() => existsSync(root()) && readdirSync(root()).length > 0, { timeout: 10_000, interval: 20 }); // the marker is written in the background
  expect(existsSync(defaultSpoolDir(server().url, project)!)).toBe(false);
  expect(readdirSync(root())).toEqual([expect.stringMatching(/^answered-[0-9a-f]{8}$/)]);
});

it('spoolDir: false: neither a spool nor a marker', async () => {
  init({ project: uniqueProject('spool-off'), baseUrl: server().url, printViewerLink: false, spoolDir: false });
  await op(async function g() { return 1; })();
  expect(await flush()).toMatchObject({ sent: 2 });
  await new Promise((r) => setTimeout(r, 100));
  expect(existsSync(root())).toBe(false);
});

it('weft spool flush without --project or --dir is a usage error (exit 2) saying what to pass', async () => {
  const { WEFT_PROJECT: _, ...env } = process.env;
  const err = await run(process.execPath, [await bundled('packages/weft-server/src/cli.ts'), 'spool', 'flush'], { env }).catch((e: { code: number; stderr: string }) => e);
  expect(err).toMatchObject({ code: 2 });
  expect((err as { stderr: string }).stderr).toContain('pass --project entity/project (or set WEFT_PROJECT)');
});
