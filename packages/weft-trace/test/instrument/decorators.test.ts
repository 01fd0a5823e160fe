// @weft-test: runtime
// @op on class methods: fixtures compiled by the real tsc with standard and with legacy decorators against the built
// package (dist/, its .d.ts: a user's view, and seconds faster than compiling src/ twice), run with node against the server.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const server = useTestServer();
let outDir: string;

beforeAll(async () => {
  // Inside node_modules so the compiled src/ finds its dependencies; a package.json marks the output as ESM.
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true }); // absent after a fresh `npm ci`
  outDir = await mkdtemp(join(cache, 'weft-decorators-'));
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}');
});
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** Compiles the fixture of `mode` with tsc, runs it with node, and returns its output and recorded calls. */
async function compileAndRun(mode: 'standard' | 'legacy'): Promise<{ printed: Record<string, unknown>; calls: CallRecord[] }> {
  const fixture = `test/fixtures/decorators/${mode}`;
  const tsc = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', fixture, '--outDir', join(outDir, mode)], { cwd: ROOT })
    .catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  expect(tsc.stdout).toBe('');
  const project = uniqueProject(`decorators-${mode}`);
  const { stdout, stderr } = await run(process.execPath, [join(outDir, mode, fixture, 'agent.js')], {
    env: { ...process.env, WEFT_PROJECT: project, WEFT_BASE_URL: server().url },
    timeout: 30_000,
  });
  expect(stderr).toMatch(/@op on .*"status" is ignored/);
  return { printed: JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>, calls: await readCalls(server().url, project) };
}

describe.each(['standard', 'legacy'] as const)('@op with %s decorators (compiled by tsc)', (mode) => {
  let result: Awaited<ReturnType<typeof compileAndRun>>;
  beforeAll(async () => {
    result = await compileAndRun(mode);
  }, 90_000);

  it('keeps `this` and return values, and leaves getters alone', () => {
    expect(result.printed).toEqual({
      planned: 'ada plans tea: 1,11',
      special: 'bob plans coffee: 1',
      sameThis: 31,
      status: 'untraced getter',
      isOp: 'function',
    });
  });

  it('names ops Class.method (static, inherited and private methods too) and records arguments only', () => {
    const names = result.calls.map((c) => c.op_name);
    const think = mode === 'standard' ? 'Agent.#think' : 'Agent.think';
    expect(new Set(names)).toEqual(new Set(['Agent.create', 'Agent.plan', 'Agent.act!', think]));
    const plans = result.calls.filter((c) => c.op_name === 'Agent.plan');
    expect(plans.map((c) => c.inputs)).toEqual([{ goal: 'tea' }, { goal: 'coffee', steps: 1 }]);
    expect(JSON.stringify(result.calls.map((c) => c.inputs))).not.toContain('must not be recorded');
    expect(result.calls.find((c) => c.op_name === 'Agent.create')?.output).toMatchObject({ __class: 'Agent', name: 'ada' });
  });

  it('nests method calls under the calling method and applies decorator options', () => {
    const byId = new Map(result.calls.map((c) => [c.id, c]));
    const acts = result.calls.filter((c) => c.op_name === 'Agent.act!');
    expect(acts.map((a) => a.display_name)).toEqual(['act #0', 'act #1', 'act #0', 'act #3']);
    const thinks = result.calls.filter((c) => c.op_name.startsWith('Agent.') && c.op_name.endsWith('think'));
    for (const t of thinks) expect(byId.get(t.parent_id as string)?.op_name).toBe('Agent.act!');
    expect(thinks.map((t) => t.output)).toEqual([1, 11, 1, 31]);
    const firstPlan = result.calls.find((c) => c.op_name === 'Agent.plan');
    expect(acts.filter((a) => a.parent_id === firstPlan?.id)).toHaveLength(2);
  });
});
