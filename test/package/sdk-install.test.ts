// @weft-test: runtime
// The SDK alone, as an app that only traces installs it: `npm pack` packages/weft-trace, install the tarball into an
// empty project (offline: the npm cache holds its few dependencies), and check its size on disk (<= 10 MB, the
// issue 30 budget) and that nothing of the server came with it. Then the SDK's `weft` bin and `weft-trace/server`,
// without weft-server installed, each say in one line how to get it. The install is shared by the runs of a checkout
// (packed-app.ts: the same on every Node.js major); what the app runs, runs on this run's Node.js.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packedApp } from 'weft-test-kit/packed-app.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const MB = 1024 * 1024;
let app: string;

/** The package.json of `name` as Node.js would find it from `dir` (the nearest node_modules up the tree). */
function installedManifest(name: string, dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, 'node_modules', name, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(d) === d) throw new Error(`${name} is not installed above ${dir}`);
  }
}

/** npm's registry address (`npm config get registry`, with a trailing slash), read once. */
let registry: string | undefined;

/**
 * `names` and every package under them, each as the tarball URL of the version this repository installed (npm's
 * registry address for it). An offline install resolves a version range from cached registry metadata, which a fresh
 * machine's cache may lack (npm ci fetches tarballs only) or which names a newer version than the cache holds
 * (ENOTCACHED); a tarball URL of an installed version is in the cache, so the install is the same on any machine.
 */
async function pinnedTarballs(names: string[], from = path.join(ROOT, 'packages/weft-trace')): Promise<Record<string, string>> {
  registry ??= (await run('npm', ['config', 'get', 'registry'])).stdout.trim().replace(/\/?$/, '/');
  const pins: Record<string, string> = {};
  const visit = (name: string, dir: string): void => {
    const manifest = installedManifest(name, dir);
    const { version, dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; dependencies?: Record<string, string> };
    const url = `${registry}${name}/-/${name.split('/').pop()}-${version}.tgz`;
    if (pins[name] === url) return;
    pins[name] = url;
    for (const dep of Object.keys(dependencies)) visit(dep, path.dirname(manifest));
  };
  for (const name of names) visit(name, from);
  return pins;
}

/** What only the server uses: none of these may be installed with the SDK. */
const SERVER_ONLY = ['hono', '@hono/node-server', 'pg', 'better-sqlite3', '@opentelemetry/otlp-transformer', '@pydantic/genai-prices', 'commander', 'luxon', 'cli-table3', 'cli-progress', 'open', 'zod', 'weft-server'];

beforeAll(async () => {
  const sdk = JSON.parse(readFileSync(path.join(ROOT, 'packages/weft-trace/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const manifest = { name: 'my-app', private: true, type: 'module', overrides: await pinnedTarballs(Object.keys(sdk.dependencies)) };
  app = (await packedApp({ workspaces: ['weft-trace'], manifest, installArgs: ['--offline'] })).dir;
}, 300_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Bytes on disk under `dir` (blocks allocated, as `du` counts them). */
function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const st = statSync(full, { throwIfNoEntry: false });
    if (st === undefined) continue;
    total += st.blocks * 512;
    if (entry.isDirectory()) total += diskBytes(full);
  }
  return total;
}

/** The packages installed under node_modules (`@scope/name` included). */
function installed(): string[] {
  const top = readdirSync(path.join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
  return top.flatMap((n) => (n.startsWith('@') ? readdirSync(path.join(app, 'node_modules', n)).map((s) => `${n}/${s}`) : [n])).sort();
}

it('installs in at most 10 MB with only the SDK\'s own dependencies', () => {
  const pkg = JSON.parse(readFileSync(path.join(app, 'node_modules/weft-trace/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // fastest-levenshtein: evaluate()'s stringSimilarity scorer (64 KB); import-in-the-middle and require-in-the-middle
  // (0.8 MB with cjs-module-lexer, es-module-lexer, module-details-from-path, debug, ms) are optional peers: the
  // no-code route's, installed by who takes it; undici (2.2 MB) is an optional peer too, used on Deno when installed
  expect(Object.keys(pkg.dependencies).sort()).toEqual(['@opentelemetry/api', 'fastest-levenshtein', 'p-queue']);
  const names = installed();
  for (const name of SERVER_ONLY) expect(names).not.toContain(name);
  expect(names).toEqual([
    '@opentelemetry/api', 'eventemitter3', 'fastest-levenshtein', 'p-queue', 'p-timeout', 'weft-trace',
  ]);
  const size = diskBytes(path.join(app, 'node_modules'));
  console.log(`SDK install: ${(size / MB).toFixed(1)} MB on disk, packages: ${names.join(', ')}`);
  expect(size).toBeLessThanOrEqual(10 * MB);
  expect(readdirSync(path.join(app, 'node_modules/weft-trace/dist'))).not.toContain('ui');
});

it('traces with zod bundled (not installed), its types from the vendored declarations', async () => {
  const script = "import { CallRecord } from 'weft-trace/schema'; import { op, init } from 'weft-trace'; console.log(typeof op, typeof init, CallRecord.safeParse({}).success);";
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app, timeout: 30_000 });
  expect(stdout.trim()).toBe('function function false');
  // every declaration file of the SDK (entries and shared chunks) points at the vendored zod, none at the package
  const dist = path.join(app, 'node_modules/weft-trace/dist');
  const declarations = readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f)).map((f) => readFileSync(path.join(dist, f), 'utf8'));
  expect(declarations.filter((t) => /(from\s*|import\s*\(?\s*)['"]zod['"]/.test(t))).toEqual([]);
  expect(declarations.some((t) => t.includes("from './zod/index.js'"))).toBe(true);
});

it('runs one instance of the SDK under Node.js, whether the app imports it or requires it (each subpath too)', async () => {
  // the `node-addons` condition's ESM entries re-export the CommonJS build (build/finish.mjs): no second copy of the
  // SDK's state and classes for an app (or its dependencies) mixing the two; the ESM build is for other runtimes
  const script = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const same = [];
for (const sub of ['', '/schema', '/otel']) { // (/langchain needs @langchain/core, a peer not installed here)
  const esm = await import('weft-trace' + sub);
  const cjs = require('weft-trace' + sub);
  const names = Object.keys(esm);
  same.push(names.length > 0 && names.every((n) => esm[n] === cjs[n]));
}
console.log(same.join(' '));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app, timeout: 30_000 });
  expect(stdout.trim()).toBe('true true true');
  const dist = path.join(app, 'node_modules/weft-trace/dist');
  expect(readFileSync(path.join(dist, 'node/vitest/index.mjs'), 'utf8')).toContain("import * as vitest from 'vitest'");
});

it('says how to get the server: the `weft` bin and weft-trace/server without weft-server', async () => {
  const bin = await run('npx', ['weft', 'serve'], { cwd: app, timeout: 60_000 }).then(
    () => undefined,
    (err: { code: number; stderr: string }) => err,
  );
  expect(bin?.code).toBe(1);
  expect(bin?.stderr).toContain('the weft command ships in the weft-server package');
  expect(bin?.stderr).toContain('npx weft-server serve');
  for (const script of ["await import('weft-trace/server')", "require('weft-trace/server')"]) {
    const input = script.startsWith('await') ? ['--input-type=module', '-e', script] : ['-e', script];
    const err = await run(process.execPath, input, { cwd: app, timeout: 30_000 }).then(
      () => undefined,
      (e: { stderr: string }) => e,
    );
    expect(err?.stderr).toContain('weft-trace/server moved to the weft-server package: run `npm install weft-server`');
  }
});

it('loads the hooking libraries only for the no-code route: not with weft-trace, yes with weft-trace/register (once installed)', async () => {
  const hooks = "Object.keys(createRequire(import.meta.url).cache).filter((f) => /(import|require)-in-the-middle/.test(f)).length";
  const probe = (load: string) => `import { createRequire } from 'node:module'; ${load}; console.log(${hooks} > 0);`;
  const env = { ...process.env, WEFT_PROJECT: 'acme/app', WEFT_BASE_URL: 'http://127.0.0.1:9', WEFT_DISABLED: 'true' };
  const loaded = async (load: string, cwd = app) => (await run(process.execPath, ['--input-type=module', '-e', probe(load)], { cwd, env, timeout: 30_000 })).stdout.trim();
  expect(await loaded("const { op, init } = await import('weft-trace'); init(); op((x) => x)(1)")).toBe('false');
  // without the optional peers, the no-code route says what to install, and the app runs
  const without = await run(process.execPath, ['--import', 'weft-trace/register', '--input-type=module', '-e', "console.log('app ran')"], { cwd: app, env, timeout: 30_000 });
  expect(without.stdout.trim()).toBe('app ran');
  expect(without.stderr).toContain('npm install import-in-the-middle require-in-the-middle');
  // the same app with the optional peers installed too
  const hooking = ['import-in-the-middle', 'require-in-the-middle'];
  const pins = await pinnedTarballs(hooking);
  const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { overrides: Record<string, string> };
  const { dir: hooked } = await packedApp({ workspaces: ['weft-trace'], manifest: { ...manifest, overrides: { ...manifest.overrides, ...pins } }, installArgs: ['--offline', ...hooking.map((name) => pins[name]!)] });
  try {
    expect(await loaded("await import('weft-trace/register')", hooked)).toBe('true');
  } finally {
    rmSync(hooked, { recursive: true, force: true });
  }
});
