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
  serverPackageJson: string;
}
const PACKAGES: Layout = {
  sdk: 'packages/weft-trace/src/',
  server: 'packages/weft-server/src/server/',
  sdkPackageJson: 'packages/weft-trace/package.json',
  serverPackageJson: 'packages/weft-server/package.json',
};
const ONE_SRC: Layout = { sdk: 'src/', server: 'src/server/', sdkPackageJson: 'package.json', serverPackageJson: 'packages/server/package.json' };

/** Whether the tree of git revision `rev` holds `path` (a file or a folder). */
export function revHas(rev: string, path: string): boolean {
  return execFileSync('git', ['ls-tree', '--name-only', rev, path], { cwd: ROOT }).toString().trim() !== '';
}

/** Extracts the sources (and package.json files) of `rev` into the cache (a folder per build name). */
function checkout(rev: string, name: string): { dir: string; layout: Layout } {
  const dir = `${CACHE}src-${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packaged = revHas(rev, 'packages/weft-trace');
  const paths = packaged
    ? ['packages/weft-trace/src', 'packages/weft-trace/package.json', 'packages/weft-server/src', 'packages/weft-server/package.json']
    : ['src', 'package.json', ...(revHas(rev, 'packages/server/package.json') ? ['packages/server/package.json'] : [])];
  const tar = execFileSync('git', ['archive', '--format=tar', rev, ...paths], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { dir, layout: packaged ? PACKAGES : ONE_SRC };
}

/**
 * Bundles the SDK (`index`, `otel/index`) and the server (`server/index`) as the two packages ship them, without
 * touching `dist/` (others may be testing against it): the SDK's entries in one build (its chunks are the shipped
 * SDK's: the server's imports never move a module between them), the server in a build of its own with what it takes
 * from the SDK bundled in. Every layout builds alike: each package's dependencies (and the SDK's peers) stay imports,
 * the rest is bundled, and weft-server's names of the SDK (`weft-trace/wire`, `/client`, `/eval`, `/otel`, `/viewer`;
 * `weft-trace/internal` before issue 49) resolve to the extracted SDK's sources (not to the working tree's package).
 *
 * @param source - a git revision (default `HEAD`: committed code only, so half-done edits in the
 *   working tree are not measured) or `worktree` for the files as they are on disk.
 * @param name - the cache folder of this build (`dist`; the paired mode's base build is `dist-base`).
 */
export async function buildForBench(source = 'HEAD', name = 'dist'): Promise<BenchBuild> {
  const { dir: base, layout } = source === 'worktree' ? { dir: ROOT, layout: existsSync(`${ROOT}packages/weft-trace/src`) ? PACKAGES : ONE_SRC } : checkout(source, name);
  const commit = source === 'worktree' ? 'working tree' : execFileSync('git', ['rev-parse', '--short', source], { cwd: ROOT }).toString().trim();
  const sdkDeps = dependencies(`${base}${layout.sdkPackageJson}`, true).filter((d) => d !== 'weft-server');
  const serverDeps = existsSync(`${base}${layout.serverPackageJson}`) ? dependencies(`${base}${layout.serverPackageJson}`, false).filter((d) => d !== 'weft-trace') : [];
  const dir = `${CACHE}${name}/`;
  const common = { config: false, format: ['esm' as const], target: 'node20', dts: false, sourcemap: true, silent: true };
  await build({
    ...common,
    entry: {
      index: `${base}${layout.sdk}index.ts`,
      // weft/otel exists from issue 14 on; older commits (BENCH_SOURCE) build without it.
      ...(existsSync(`${base}${layout.sdk}otel/index.ts`) ? { 'otel/index': `${base}${layout.sdk}otel/index.ts` } : {}),
    },
    outDir: dir,
    clean: true,
    external: ['better-sqlite3', ...sdkDeps],
  });
  await build({
    ...common,
    entry: { index: `${base}${layout.server}index.ts` },
    outDir: `${dir}server/`,
    // native and driver modules stay runtime imports, as in the packages' tsup.config.ts
    external: ['better-sqlite3', 'pg', ...sdkDeps, ...serverDeps],
    esbuildOptions(options) {
      if (layout === PACKAGES) {
        const entries = { internal: 'internal-api.ts', wire: 'wire-api.ts', client: 'client-api.ts', eval: 'eval-api.ts', viewer: 'viewer-api.ts', otel: 'otel/index.ts' };
        options.alias = Object.fromEntries(
          Object.entries(entries)
            .filter(([, file]) => existsSync(`${base}${layout.sdk}${file}`))
            .map(([name, file]) => [`weft-trace/${name}`, `${base}${layout.sdk}${file}`]),
        );
      }
    },
  });
  return { dir, label: `tsup build of ${commit}` };
}

/** The names a package.json depends on at run time (`dependencies`, and `peerDependencies` when `peers`). */
function dependencies(file: string, peers: boolean): string[] {
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  return [...Object.keys(pkg.dependencies ?? {}), ...(peers ? Object.keys(pkg.peerDependencies ?? {}) : [])];
}
