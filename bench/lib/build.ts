// Builds weft for the benchmarks with tsup (ESM, as `npm run build` does) from a git commit or the working tree, into a private cache dir.
// Either layout: packages/weft-trace/src + packages/weft-server/src (issue 38 on) or the one src/ of earlier commits.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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

/** Where a tree keeps the SDK's and the server's sources, and the package.json whose dependencies stay imports. */
interface Layout {
  sdk: string;
  server: string;
  sdkPackageJson: string;
}
const PACKAGES: Layout = { sdk: 'packages/weft-trace/src/', server: 'packages/weft-server/src/server/', sdkPackageJson: 'packages/weft-trace/package.json' };
const ONE_SRC: Layout = { sdk: 'src/', server: 'src/server/', sdkPackageJson: 'package.json' };

/** Extracts the sources (and package.json files) of `rev` into the cache (a folder per build name). */
function checkout(rev: string, name: string): { dir: string; layout: Layout } {
  const dir = `${CACHE}src-${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packaged = execFileSync('git', ['ls-tree', '--name-only', rev, 'packages/weft-trace'], { cwd: ROOT }).toString().trim() !== '';
  const paths = packaged ? ['packages/weft-trace/src', 'packages/weft-trace/package.json', 'packages/weft-server/src'] : ['src', 'package.json'];
  const tar = execFileSync('git', ['archive', '--format=tar', rev, ...paths], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { dir, layout: packaged ? PACKAGES : ONE_SRC };
}

/**
 * Bundles the SDK (`index`, `otel/index`) and the server (`server/index`) exactly like the ESM part of the SDK's
 * build, without touching `dist/` (others may be testing against it). Both layouts build alike: the SDK package's
 * dependencies and peers stay imports (what tsup does for the package it builds), the rest is bundled, and
 * weft-server's `weft-trace/internal` and `weft-trace/viewer` resolve to the extracted SDK's sources (not to the
 * working tree's, as the repository's tsconfig `paths` would).
 *
 * @param source - a git revision (default `HEAD`: committed code only, so half-done edits in the
 *   working tree are not measured) or `worktree` for the files as they are on disk.
 * @param name - the cache folder of this build (`dist`; the paired mode's base build is `dist-base`).
 */
export async function buildForBench(source = 'HEAD', name = 'dist'): Promise<BenchBuild> {
  const { dir: base, layout } = source === 'worktree' ? { dir: ROOT, layout: existsSync(`${ROOT}packages/weft-trace/src`) ? PACKAGES : ONE_SRC } : checkout(source, name);
  const commit = source === 'worktree' ? 'working tree' : execFileSync('git', ['rev-parse', '--short', source], { cwd: ROOT }).toString().trim();
  const pkg = JSON.parse(readFileSync(`${base}${layout.sdkPackageJson}`, 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  const dir = `${CACHE}${name}/`;
  await build({
    config: false,
    entry: {
      index: `${base}${layout.sdk}index.ts`,
      'server/index': `${base}${layout.server}index.ts`,
      // weft/otel exists from issue 14 on; older commits (BENCH_SOURCE) build without it.
      ...(existsSync(`${base}${layout.sdk}otel/index.ts`) ? { 'otel/index': `${base}${layout.sdk}otel/index.ts` } : {}),
    },
    format: ['esm'],
    outDir: dir,
    target: 'node20',
    dts: false,
    sourcemap: true,
    clean: true,
    silent: true,
    // native and driver modules stay runtime imports, as in the packages' tsup.config.ts
    external: ['better-sqlite3', 'pg', ...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}).filter((d) => d !== 'weft-server')],
    esbuildOptions(options) {
      if (layout === PACKAGES) {
        options.alias = {
          'weft-trace/internal': `${base}${layout.sdk}internal-api.ts`,
          'weft-trace/viewer': `${base}${layout.sdk}viewer-api.ts`,
        };
      }
    },
  });
  return { dir, label: `tsup build of ${commit}` };
}
