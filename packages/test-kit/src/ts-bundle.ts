/**
 * Test helper: a TypeScript program (an example or a fixture) bundled once per test process into one ES module that
 * plain `node` runs, so a child process skips tsx's loader (about 1.5 s of CPU a run to load `src/` through it;
 * `node --import tsx` runs the same esbuild transform, module by module). Packages stay imports from node_modules;
 * the bundle is written to a `.test-bundles/` folder at the depth of the file's own top folder (the repository root
 * for `examples/` and `test/`, the package's folder for `packages/<name>/src/`), so a `new URL('..', import.meta.url)`
 * or a walk up to the package's `dist/ui` finds what it finds from the sources.
 * @module
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { isAlive } from 'weft-trace/src/export/spool.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/**
 * Where the bundles go (ignored by git): each test process writes its own files, named with its pid, and deletes
 * them at exit; a process that ends without its exit handlers (vitest ends its workers so) leaves them to the next
 * one, which deletes the files of every process no longer running.
 */
const outDirOf = (file: string): string => path.join(ROOT, /^packages\/[^/]+\//.exec(file)?.[0] ?? '', '.test-bundles');
const built = new Map<string, Promise<string>>();
const written: string[] = [];
let cleanupHooked = false;

/**
 * The absolute path of `file` (a path from the repository root, e.g. `examples/streams.ts`) bundled for `node`,
 * built at the first call in this process; rejects with esbuild's errors when it does not compile.
 */
export function bundled(file: string): Promise<string> {
  let out = built.get(file);
  if (!out) {
    out = bundle(file);
    built.set(file, out);
  }
  return out;
}

async function bundle(file: string): Promise<string> {
  const name = `${path.basename(file).replace(/\.[cm]?tsx?$/, '')}-${process.pid}-${built.size}.mjs`;
  const outDir = outDirOf(file);
  const outfile = path.join(outDir, name);
  sweepDeadProcesses(outDir);
  if (!cleanupHooked) {
    cleanupHooked = true;
    process.on('exit', () => {
      for (const f of written) rmSync(f, { force: true });
    });
  }
  written.push(outfile);
  await build({
    entryPoints: [path.join(ROOT, file)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    keepNames: true, // op() names come from function and class names: no renaming on the way
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return outfile;
}

const swept = new Set<string>();
/** Deletes the bundles of test processes that are gone from `outDir` (once a process). */
function sweepDeadProcesses(outDir: string): void {
  if (swept.has(outDir)) return;
  swept.add(outDir);
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(outDir)) {
    const pid = Number(/-(\d+)-\d+\.mjs$/.exec(name)?.[1]);
    if (!pid || isAlive(pid)) continue;
    rmSync(path.join(outDir, name), { force: true });
  }
}
