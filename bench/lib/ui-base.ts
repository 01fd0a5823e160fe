// Builds the trace viewer of another revision (BENCH_BASE) for ui.bench.ts's paired mode: its `ui/` and `src/` out of git, built by Vite beside that revision's server build, where that server finds it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside node_modules, so the page's bare imports (preact, uplot) resolve from it. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'weft-bench', 'ui-src-base');

/**
 * Extracts `ui/` and `src/` (the page imports the SDK's pure modules) of `rev` and builds the page into
 * `<serverDist>/ui`: the folder the server built into `serverDist` serves (`findUiDir` looks beside its build).
 *
 * @param rev - a git revision, e.g. `main`.
 * @param serverDist - the base build's folder (`WEFT_BENCH_BASE_DIST`).
 */
export async function buildBaseUi(rev: string, serverDist: string): Promise<void> {
  rmSync(CACHE, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', rev, 'ui', 'src'], { cwd: ROOT, maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', CACHE], { input: tar });
  await build({
    configFile: false,
    root: join(CACHE, 'ui'),
    base: './',
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir: join(serverDist, 'ui'), emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: false },
  });
}
