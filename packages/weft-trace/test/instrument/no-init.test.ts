// @weft-test: isolated runtime (the first call before any init(), the process's state at its start)
// Before init() and with tracing disabled, op() just runs the function and records nothing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const server = useTestServer();

it('runs untraced before init(), sync staying sync', async () => {
  const double = op(function double(n: number) { return n * 2; });
  expect(double(21)).toBe(42);
  const asyncDouble = op(async (n: number) => n * 2);
  await expect(asyncDouble(2)).resolves.toBe(4);
  expect(await flush()).toMatchObject({ sent: 0, dropped: 0, pending: 0 });
});

it('records nothing when init({ enabled: false })', async () => {
  const project = uniqueProject('disabled');
  init({ project, baseUrl: server().url, enabled: false });
  const f = op(function f() { return 'ran'; });
  expect(f()).toBe('ran');
  await flush();
  init({ project, baseUrl: server().url });
  f();
  await flush();
  expect(await readCalls(server().url, project)).toHaveLength(1);
});

it('records nothing when WEFT_DISABLED=true', async () => {
  const project = uniqueProject('env-disabled');
  process.env.WEFT_DISABLED = 'true';
  try {
    init({ project, baseUrl: server().url });
    op(function g() { return 1; })();
    await flush();
  } finally {
    delete process.env.WEFT_DISABLED;
  }
  expect(await readCalls(server().url, project)).toHaveLength(0);
});

it('warns exactly once per process when op() runs before init()', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, WEFT_LOG_LEVEL: 'warn' };
  delete env.WEFT_PROJECT;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [await bundled('test/fixtures/no-init-warning.ts')], { env, timeout: 30_000 });
  expect(stdout.trim()).toBe('total 12 async ok');
  expect(stderr.match(/\[weft\] warn: op\(\) called before init\(\)/g)).toHaveLength(1);
});
