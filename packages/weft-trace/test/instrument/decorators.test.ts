// @weft-test: runtime
// @op on class methods: fixtures compiled by the TypeScript compiler (tsc's own program and emit, through its API) with
// standard and with legacy decorators against the built package (dist/, its .d.ts: a user's view, and seconds faster
// than compiling src/ twice), run with node against the server. Both compile in this process with one cache of parsed
// files, so the libraries' and the package's declarations are read and parsed once, not by two tsc processes each.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
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

const MODES = ['standard', 'legacy'] as const;
type Mode = (typeof MODES)[number];
const fixtureOf = (mode: Mode) => `test/fixtures/decorators/${mode}`;

/**
 * Compiles each mode's fixture (its tsconfig.json, output under `outDir`/<mode>) as `tsc -p` does; answers each
 * mode's diagnostics as tsc prints them ('' when it compiles cleanly). A file read for one mode (lib.*.d.ts,
 * @types/node, the package's .d.ts) is parsed once and shared by the other's program, as an editor's language service does.
 */
function compileAll(): Record<Mode, string> {
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const format: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  const compile = (mode: Mode): string => {
    const configHost: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.formatDiagnostics([d], format)); } };
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, fixtureOf(mode), 'tsconfig.json'), { outDir: join(outDir, mode) }, configHost)!;
    const host = ts.createCompilerHost(config.options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
      if (!parsed.has(key)) parsed.set(key, read(fileName, languageVersion, onError, shouldCreate));
      return parsed.get(key);
    };
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, projectReferences: config.projectReferences });
    return ts.formatDiagnostics([...config.errors, ...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics], format);
  };
  return { standard: compile('standard'), legacy: compile('legacy') };
}

let compiled: Record<Mode, string>;
beforeAll(() => {
  compiled = compileAll();
}, 90_000);

/** Runs the compiled fixture of `mode` with node, and returns its output and recorded calls. */
async function runCompiled(mode: Mode): Promise<{ printed: Record<string, unknown>; calls: CallRecord[] }> {
  expect(compiled[mode]).toBe('');
  const fixture = fixtureOf(mode);
  const project = uniqueProject(`decorators-${mode}`);
  const { stdout, stderr } = await run(process.execPath, [join(outDir, mode, fixture, 'agent.js')], {
    env: { ...process.env, WEFT_PROJECT: project, WEFT_BASE_URL: server().url },
    timeout: 30_000,
  });
  expect(stderr).toMatch(/@op on .*"status" is ignored/);
  return { printed: JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>, calls: await readCalls(server().url, project) };
}

describe.each(MODES)('@op with %s decorators (compiled by tsc)', (mode) => {
  let result: Awaited<ReturnType<typeof runCompiled>>;
  beforeAll(async () => {
    result = await runCompiled(mode);
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
