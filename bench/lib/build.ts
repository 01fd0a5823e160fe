// Builds weft for the benchmarks with tsup (ESM, as `npm run build` does) from a git commit or the working tree, into a private cache dir.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside node_modules, so bare imports of the bundle (p-queue, undici, ...) resolve from it. */
const CACHE = `${ROOT}node_modules/.cache/weft-bench/`;

/** What was built: the output dir and a label naming the source. */
export interface BenchBuild {
  dir: string;
  label: string;
}

/** Extracts `src/` of `rev` into the cache (a folder per build name) and returns the directory holding it. */
function checkoutSrc(rev: string, name: string): string {
  const dir = `${CACHE}src-${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', rev, 'src'], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

/**
 * Bundles `src/index.ts` and `src/server/index.ts` exactly like the ESM part of `npm run build`,
 * without touching `dist/` (others may be testing against it).
 *
 * @param source - a git revision (default `HEAD`: committed code only, so half-done edits in the
 *   working tree are not measured) or `worktree` for the files as they are on disk.
 * @param name - the cache folder of this build (`dist`; the paired mode's base build is `dist-base`).
 */
export async function buildForBench(source = 'HEAD', name = 'dist'): Promise<BenchBuild> {
  const base = source === 'worktree' ? ROOT : checkoutSrc(source, name);
  const commit = source === 'worktree' ? 'working tree' : execFileSync('git', ['rev-parse', '--short', source], { cwd: ROOT }).toString().trim();
  const dir = `${CACHE}${name}/`;
  await build({
    config: false,
    entry: {
      index: `${base}src/index.ts`,
      'server/index': `${base}src/server/index.ts`,
      // weft/otel exists from issue 14 on; older commits (BENCH_SOURCE) build without it.
      ...(existsSync(`${base}src/otel/index.ts`) ? { 'otel/index': `${base}src/otel/index.ts` } : {}),
    },
    format: ['esm'],
    outDir: dir,
    target: 'node20',
    dts: false,
    sourcemap: true,
    clean: true,
    silent: true,
    // native and driver modules stay runtime imports, as in tsup.config.ts
    external: ['better-sqlite3', 'pg'],
  });
  return { dir, label: `tsup build of ${commit}` };
}
