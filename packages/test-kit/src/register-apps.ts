/**
 * Test helper: small apps using the provider SDKs, written as ESM and as CommonJS and run in a child process three
 * ways: wrapped by hand (explicit), by `weft-trace/register` only (auto), and both; their calls are read back. One child
 * runs several apps in turn (one Node.js start, one SDK load and one register hook for all of them), each under a root
 * op named for its library ({@link appRoot}), so {@link byApp} splits the calls back per app.
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallRecord } from 'weft-trace/src/schema/calls.js';
import { readCalls, uniqueProject } from './calls.js';
import { spawnTracked } from './child-processes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROOT_OP = 'app ';

/**
 * One app: the modules it loads (variable name -> specifier) and its body, which defines `async function main()`
 * and may read `weft` (the weft-trace module), `WRAP` (wrap by hand) and `URLS` (the loopback fakes).
 */
export interface AppSpec {
  readonly lib: string;
  readonly imports: Readonly<Record<string, string>>;
  readonly body: string;
  /** Packages the app resolves under another installed name (`openai` -> `openai-v7`, for a newer major). */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** Apps written to one folder, run together in each child: from {@link writeApps}. */
export interface AppGroup {
  readonly dir: string;
  readonly specs: readonly AppSpec[];
}

export type AppFormat = 'esm' | 'cjs';
export type AppMode = 'explicit' | 'auto' | 'both';

/** The op name of the root call an app's calls are under in a group's run: `app <lib>` (`app openai`). */
export function appRoot(lib: string): string {
  return ROOT_OP + lib;
}

/** The apps' entries of `field` in one record. @throws {Error} when two apps give one name two values. */
function merged(specs: readonly AppSpec[], field: 'imports' | 'aliases'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of specs) {
    for (const [name, value] of Object.entries(spec[field] ?? {})) {
      if (out[name] !== undefined && out[name] !== value) throw new Error(`${spec.lib}: ${field} ${name} is ${value}, another app's is ${out[name]}`);
      out[name] = value;
    }
  }
  return out;
}

function source(specs: readonly AppSpec[], format: AppFormat): string {
  const mods = { weft: 'weft-trace', ...merged(specs, 'imports') };
  const head =
    format === 'esm'
      ? Object.entries(mods).map(([v, s]) => `import * as ${v} from '${s}';`)
      : Object.entries(mods).map(([v, s]) => `const ${v} = require('${s}');`);
  // each body in a function of its own (its `main`, its top-level statements run at load, as in an app of its own)
  const mains = specs.map((s) => `  [${JSON.stringify(appRoot(s.lib))}, (() => {\n${s.body}\nreturn main;\n})()],`);
  // an app that throws has the error on its root call (the test asserts none) and the next app still runs; the child
  // then exits once its calls are flushed, whatever the failed app left open; else it ends by itself
  const run = `if (process.env.APP_INIT === '1') weft.init();
let failed = false;
for (const [name, main] of MAINS) await weft.op(main, { name })().catch((err) => { failed = true; console.error(name, err); });
const report = await weft.flush();
if (report.dropped > 0) throw new Error('dropped ' + report.dropped);
if (failed) process.exit(0);`;
  const prelude = `const WRAP = process.env.APP_WRAP === '1';\nconst URLS = JSON.parse(process.env.APP_URLS);\nconst MAINS = [\n${mains.join('\n')}\n];\n`;
  return format === 'esm'
    ? `${head.join('\n')}\n${prelude}${run}\n`
    : `${head.join('\n')}\n${prelude}(async () => {\n${run}\n})().catch((err) => { console.error(err); process.exitCode = 1; });\n`;
}

/**
 * Writes the apps, run in turn, as one ESM and one CommonJS file into a fresh folder under the repository (so their
 * packages resolve), with links for their aliases. @throws {Error} when two apps import or alias one name differently.
 */
export function writeApps(specs: readonly AppSpec[]): AppGroup {
  const base = path.join(ROOT, 'node_modules', '.cache', 'weft-register-apps');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, 'apps-'));
  writeFileSync(path.join(dir, 'app.mjs'), source(specs, 'esm'));
  writeFileSync(path.join(dir, 'app.cjs'), source(specs, 'cjs'));
  for (const [name, installed] of Object.entries(merged(specs, 'aliases'))) {
    const link = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', installed), link, 'dir');
  }
  return { dir, specs };
}

/** Deletes a group's folder (written by {@link writeApps}). */
export function removeApps(group: AppGroup): void {
  rmSync(group.dir, { recursive: true, force: true });
}

/**
 * Runs the group's apps in one child process against `baseUrl` (`urls`: the loopback fakes by name) and returns its
 * project's calls. @throws {Error} (rejects) with the child's output when it exits non-zero.
 */
export async function runApps(group: AppGroup, format: AppFormat, mode: AppMode, baseUrl: string, urls: Record<string, string>): Promise<CallRecord[]> {
  const project = uniqueProject(`register-${mode}`);
  const register = mode === 'explicit' ? [] : [format === 'esm' ? '--import' : '-r', 'weft-trace/register'];
  // an alias is reached under its own name only when Node keeps the link's path (else the hooks see `openai-v7`)
  const links = group.specs.some((s) => s.aliases) ? ['--preserve-symlinks'] : [];
  const env: NodeJS.ProcessEnv = { ...process.env, WEFT_PROJECT: project, WEFT_BASE_URL: baseUrl, WEFT_FLUSH_INTERVAL_MS: '50', APP_URLS: JSON.stringify(urls) };
  env['APP_INIT'] = mode === 'explicit' ? '1' : '0';
  env['APP_WRAP'] = mode === 'auto' ? '0' : '1';
  delete env['NODE_ENV']; // the Agents SDK traces nothing under NODE_ENV=test
  delete env['NODE_OPTIONS'];
  delete env['OPENAI_API_KEY'];
  const child = spawnTracked(process.execPath, [...links, ...register, path.join(group.dir, `app.${format === 'esm' ? 'mjs' : 'cjs'}`)], { cwd: group.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${group.specs.map((s) => s.lib).join(', ')} ${format} ${mode} exited ${code}:\n${out}`);
  return readCalls(baseUrl, project);
}

/**
 * The calls split by the app whose root call ({@link appRoot}) each is under, by library; under `''`, those under no
 * app's root (another root, or a parent missing from `calls`), which a group's run should not have.
 */
export function byApp(calls: readonly CallRecord[]): Map<string, CallRecord[]> {
  const byId = new Map(calls.map((c) => [c.id, c]));
  const out = new Map<string, CallRecord[]>();
  for (const call of calls) {
    let root: CallRecord | undefined = call;
    for (let hops = 0; root?.parent_id && hops < calls.length; hops++) root = byId.get(root.parent_id);
    const lib = root && !root.parent_id && root.op_name.startsWith(ROOT_OP) ? root.op_name.slice(ROOT_OP.length) : '';
    out.set(lib, [...(out.get(lib) ?? []), call]);
  }
  return out;
}

/**
 * The calls as a comparable tree: one line per call (op, its parent's op, inputs, usage, error or not), sorted, ids
 * and times left out.
 */
export function treeOf(calls: readonly CallRecord[]): string[] {
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls
    .map((c) => {
      const parent = c.parent_id ? (byId.get(c.parent_id)?.op_name ?? '?') : '-';
      const usage = (c.summary as { usage?: unknown } | undefined)?.usage;
      return `${c.op_name} < ${parent} ${JSON.stringify(c.inputs)} usage=${JSON.stringify(usage ?? null)} error=${c.exception ? 'yes' : 'no'}`;
    })
    .sort();
}
