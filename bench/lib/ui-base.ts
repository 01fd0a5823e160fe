// Builds the trace viewer of another revision (BENCH_BASE) for ui.bench.ts's paired mode: its page and the SDK's sources out of git (either layout), built by Vite beside that revision's server build, where that server finds it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { revHas } from './build.js';

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
  // the packages layout (issue 38 on): the page in weft-server's src/ui, the SDK's names it imports by `weft-trace/viewer`
  const packaged = revHas(rev, 'packages/weft-server/src/ui');
  const paths = packaged ? ['packages/weft-server/src/ui', 'packages/weft-trace/src'] : ['ui', 'src'];
  const tar = execFileSync('git', ['archive', '--format=tar', rev, ...paths], { cwd: ROOT, maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', CACHE], { input: tar });
  await build({
    configFile: false,
    root: join(CACHE, packaged ? 'packages/weft-server/src/ui' : 'ui'),
    base: './',
    resolve: packaged ? { alias: { 'weft-trace/viewer': join(CACHE, 'packages/weft-trace/src/viewer-api.ts') } } : {},
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir: join(serverDist, 'ui'), emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: false },
  });
}
