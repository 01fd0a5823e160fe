// @weft-test: runtime
// The built package: CommonJS loads without ERR_REQUIRE_ESM, ESM loads, both copies share one context.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, expectTypeOf, it } from 'vitest';
import { op, type CurrentCall, type Op } from 'weft-trace';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';

const run = promisify(execFile);
const node = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, args, { env: { ...process.env, ...env }, timeout: 30_000 });

const server = useTestServer();

it('require()s the CommonJS build with require(esm) switched off (no ERR_REQUIRE_ESM)', async () => {
  const script = `const w = require('weft-trace'); const s = require('weft-trace/server'); const z = require('weft-trace/schema');
    console.log([typeof w.init, typeof w.op, typeof w.Client, typeof w.flush, typeof s.startServer, typeof z.CallRecord.parse].join(','));`;
  const { stdout } = await node(['--no-experimental-require-module', '-e', script]);
  expect(stdout.trim()).toBe('function,function,function,function,function,function');
});

it('imports the ESM build', async () => {
  const script = `const w = await import('weft-trace'); const s = await import('weft-trace/server'); const z = await import('weft-trace/schema');
    console.log([typeof w.init, typeof w.op, typeof w.ValidationError, typeof s.startServer, typeof z.CallsQueryReq.safeParse].join(','));`;
  const { stdout } = await node(['--input-type=module', '-e', script]);
  expect(stdout.trim()).toBe('function,function,function,function,function');
});

it('shares one context between the ESM and CJS copies loaded in one process', async () => {
  const project = uniqueProject('dual');
  const { stdout } = await node(['test/fixtures/dual-load.mjs'], { WEFT_PROJECT: project, WEFT_BASE_URL: server().url });
  expect(stdout).toContain('one instance under Node.js: true');
  expect(stdout).toContain('result 2');
  const calls = await readCalls(server().url, project);
  const outer = calls.find((c) => c.op_name === 'outer');
  const inner = calls.find((c) => c.op_name === 'inner');
  expect(outer).toMatchObject({ op_name: 'outer', id: expect.stringMatching(/^[\da-f-]{36}$/) });
  expect(inner?.parent_id).toBe(outer?.id);
  // the helpers of one copy reach the ops of the other; init() options of the CJS copy apply to ESM ops
  const planner = calls.find((c) => c.op_name === 'planner');
  const tool = calls.find((c) => c.op_name === 'tool');
  expect(tool?.parent_id).toBe(planner?.id);
  expect(planner).toMatchObject({ svc_run_id: 'dual-run', svc_run_step: 1, thread_id: 'dual-thread', attributes: { copy: 'esm' }, inputs: { ssn: 'REDACTED' } });
  expect(tool).toMatchObject({ svc_run_id: 'dual-run', svc_run_step: 2, thread_id: 'dual-thread', attributes: { copy: 'esm' } });
  expect(stdout).toContain(`current ${tool?.id}`);
  // both copies read the same export counters, whichever copy's init() made the exporter
  const sent = Number(/^sent (\d+)$/m.exec(stdout)?.[1]);
  expect(sent).toBe(8);
  expect(stdout).toContain(`stats esm ${sent} cjs ${sent}`);
});

it('ships a working `weft` bin: the SDK\'s forwards to weft-server\'s CLI, which weft-server ships as `weft-server`', async () => {
  const { stdout } = await node(['packages/weft-trace/dist/cli.js', '--help']);
  expect(stdout).toContain('serve');
  const server = await node(['packages/weft-server/dist/cli.js', '--help']);
  expect(server.stdout).toBe(stdout);
});

it('forwards weft-trace/server to every export of weft-server (ESM and CommonJS)', async () => {
  const script = `const s = await import('weft-server'); const f = await import('weft-trace/server'); const c = require('weft-trace/server');
    console.log(JSON.stringify([Object.keys(s).sort(), Object.keys(f).sort(), Object.keys(c).sort()]));`;
  const { stdout } = await node(['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/x.js'); ${script}`]);
  const [server, esm, cjs] = JSON.parse(stdout) as string[][];
  expect(server).toContain('startServer');
  expect(esm).toEqual(server);
  expect(cjs).toEqual(server);
});

it('keeps the wrapped function\'s call signature unchanged and adds invoke()', () => {
  const sync = (a: number, b: string): string => `${a}${b}`;
  const asyncFn = async (x: { q: string }): Promise<number> => x.q.length;
  expectTypeOf(op(sync)).toEqualTypeOf<Op<typeof sync>>();
  expectTypeOf(op(sync)).toExtend<typeof sync>();
  expectTypeOf(op(sync)).parameters.toEqualTypeOf<[number, string]>();
  expectTypeOf(op(sync)).returns.toEqualTypeOf<string>();
  expectTypeOf(op(asyncFn)).toExtend<typeof asyncFn>();
  expectTypeOf(op(asyncFn)).returns.toEqualTypeOf<Promise<number>>();
  expectTypeOf(op(sync).invoke).returns.toEqualTypeOf<[string, CurrentCall | undefined]>();
  expectTypeOf(op(asyncFn).invoke).returns.toEqualTypeOf<Promise<[number, CurrentCall | undefined]>>();
});
