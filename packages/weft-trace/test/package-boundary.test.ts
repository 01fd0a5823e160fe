// The boundary between the two packages (issue 38): the SDK's sources never reach weft-server, weft-server names the
// SDK only by its package names, and the SDK's build fails on an import that leaves its src/.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { boundaryPlugin } from '../build/boundary-plugin.js';

const PACKAGES = path.resolve(import.meta.dirname, '../..');
const SDK_SRC = path.join(PACKAGES, 'weft-trace/src');
const SERVER_SRC = path.join(PACKAGES, 'weft-server/src');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield full;
  }
}

/** Every module specifier of a source file: static and dynamic imports, re-exports, `import('...')` types. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** `file: specifier` for each relative specifier of the files under `dir` that resolves outside it. */
function leaving(dir: string): string[] {
  const out: string[] = [];
  for (const file of sources(dir)) {
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(dir + path.sep)) out.push(`${path.relative(PACKAGES, file)}: ${spec}`);
    }
  }
  return out;
}

describe('the packages\' boundary', () => {
  it('weft-trace\'s sources import nothing outside its src/, and name weft-server only where the `weft` bin resolves it at run time', () => {
    expect(leaving(SDK_SRC)).toEqual([]);
    const namingServer = [...sources(SDK_SRC)].filter((f) => specifiers(f).some((s) => s === 'weft-server' || s.startsWith('weft-server/')));
    expect(namingServer.map((f) => path.relative(SDK_SRC, f))).toEqual([]);
    // the `weft` bin finds weft-server's CLI when it runs (a resolve, not an import the bundler would follow)
    expect(readFileSync(path.join(SDK_SRC, 'cli-forward.ts'), 'utf8')).toContain("resolve('weft-server/cli')");
  });

  it('weft-server\'s sources reach weft-trace only by its package names, never by a path into its sources', () => {
    expect(leaving(SERVER_SRC)).toEqual([]);
    const names = new Set([...sources(SERVER_SRC)].flatMap((f) => specifiers(f).filter((s) => s.startsWith('weft-trace'))));
    expect([...names].sort()).toEqual(['weft-trace', 'weft-trace/client', 'weft-trace/eval', 'weft-trace/otel', 'weft-trace/viewer', 'weft-trace/wire']);
    // the root (init, op, the provider wrappers, evaluate) only in the playground's worker: a traced program of its own,
    // a process apart from the server (src/server/playground/worker-process.ts)
    const rootUsers = [...sources(SERVER_SRC)].filter((f) => specifiers(f).includes('weft-trace')).map((f) => path.relative(SERVER_SRC, f)).sort();
    expect(rootUsers).toEqual(['server/playground/worker/playground-worker.ts', 'server/playground/worker/variant-call.ts', 'server/playground/worker/variant-evaluate.ts']);
  });

  it('each name weft-server imports is an export of weft-trace\'s package.json, and weft-server depends on weft-trace at its version', () => {
    const sdk = JSON.parse(readFileSync(path.join(PACKAGES, 'weft-trace/package.json'), 'utf8')) as { version: string; exports: Record<string, unknown> };
    const server = JSON.parse(readFileSync(path.join(PACKAGES, 'weft-server/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const names = new Set([...sources(SERVER_SRC)].flatMap((f) => specifiers(f).filter((s) => s.startsWith('weft-trace'))));
    for (const name of names) expect(Object.keys(sdk.exports)).toContain(`.${name.slice('weft-trace'.length)}`);
    expect(server.dependencies['weft-trace']).toBe(sdk.version);
  });

  it('weft-trace\'s build fails on a relative import that leaves src/, naming the file and the import', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'weft-boundary-'));
    try {
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(path.join(dir, 'outside.ts'), 'export const x = 1;\n');
      writeFileSync(path.join(dir, 'src/inside.ts'), 'export const y = 2;\n');
      writeFileSync(path.join(dir, 'src/ok.ts'), "import { y } from './inside.js';\nconsole.log(y);\n");
      writeFileSync(path.join(dir, 'src/bad.ts'), "import { x } from '../outside.js';\nconsole.log(x);\n");
      const options = { bundle: true, write: false, logLevel: 'silent' as const, plugins: [boundaryPlugin(path.join(dir, 'src'))] };
      await expect(build({ ...options, entryPoints: [path.join(dir, 'src/ok.ts')] })).resolves.toBeDefined();
      await expect(build({ ...options, entryPoints: [path.join(dir, 'src/bad.ts')] })).rejects.toThrow(
        "bad.ts imports ../outside.js, outside weft-trace's src/ (the SDK never reaches weft-server)",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
