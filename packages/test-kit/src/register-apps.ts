/**
 * Test helper: small apps using one provider SDK each, written as ESM and as CommonJS and run in a child process three
 * ways: wrapped by hand (explicit), by `weft-trace/register` only (auto), and both; their calls are read back.
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallRecord } from 'weft-trace/src/schema/calls.js';
import { readCalls, uniqueProject } from './calls.js';
import { spawnTracked } from './child-processes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

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

export type AppFormat = 'esm' | 'cjs';
export type AppMode = 'explicit' | 'auto' | 'both';

function source(spec: AppSpec, format: AppFormat): string {
  const mods = { weft: 'weft-trace', ...spec.imports };
  const head =
    format === 'esm'
      ? Object.entries(mods).map(([v, s]) => `import * as ${v} from '${s}';`)
      : Object.entries(mods).map(([v, s]) => `const ${v} = require('${s}');`);
  const run = `if (process.env.APP_INIT === '1') weft.init();
await weft.op(async function app() { await main(); })();
const report = await weft.flush();
if (report.dropped > 0) throw new Error('dropped ' + report.dropped);`;
  const prelude = `const WRAP = process.env.APP_WRAP === '1';\nconst URLS = JSON.parse(process.env.APP_URLS);\n${spec.body}\n`;
  return format === 'esm'
    ? `${head.join('\n')}\n${prelude}${run}\n`
    : `${head.join('\n')}\n${prelude}(async () => {\n${run}\n})().catch((err) => { console.error(err); process.exitCode = 1; });\n`;
}

/** Writes the app's two files into a fresh folder under the repository (so its packages resolve); returns the folder. */
export function writeApp(spec: AppSpec): string {
  const base = path.join(ROOT, 'node_modules', '.cache', 'weft-register-apps');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, `${spec.lib.replace(/[@/]/g, '_')}-`));
  writeFileSync(path.join(dir, 'app.mjs'), source(spec, 'esm'));
  writeFileSync(path.join(dir, 'app.cjs'), source(spec, 'cjs'));
  for (const [name, installed] of Object.entries(spec.aliases ?? {})) {
    const link = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', installed), link, 'dir');
  }
  return dir;
}

export function removeApp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs the app once in a child process against `baseUrl` and returns its project's calls; rejects with its output when it fails. */
export async function runApp(dir: string, spec: AppSpec, format: AppFormat, mode: AppMode, baseUrl: string, urls: Record<string, string>): Promise<CallRecord[]> {
  const project = uniqueProject(`register-${mode}`);
  const register = mode === 'explicit' ? [] : [format === 'esm' ? '--import' : '-r', 'weft-trace/register'];
  // an alias is reached under its own name only when Node keeps the link's path (else the hooks see `openai-v7`)
  const links = spec.aliases ? ['--preserve-symlinks'] : [];
  const env: NodeJS.ProcessEnv = { ...process.env, WEFT_PROJECT: project, WEFT_BASE_URL: baseUrl, WEFT_FLUSH_INTERVAL_MS: '50', APP_URLS: JSON.stringify(urls) };
  env['APP_INIT'] = mode === 'explicit' ? '1' : '0';
  env['APP_WRAP'] = mode === 'auto' ? '0' : '1';
  delete env['NODE_ENV']; // the Agents SDK traces nothing under NODE_ENV=test
  delete env['NODE_OPTIONS'];
  delete env['OPENAI_API_KEY'];
  const child = spawnTracked(process.execPath, [...links, ...register, path.join(dir, `app.${format === 'esm' ? 'mjs' : 'cjs'}`)], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${spec.lib} ${format} ${mode} exited ${code}:\n${out}`);
  return readCalls(baseUrl, project);
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
