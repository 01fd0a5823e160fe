// Installs weft-trace of a git revision as a user gets it: the package's own build (its tsup.config.ts), `npm pack`, then `npm install <tarball>` into an empty app.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { revHas } from './build.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = `${ROOT}node_modules/.cache/weft-bench/`;

/** An app with one revision's packed weft-trace installed: its folder, and a label naming the revision. */
export interface PackedApp {
  dir: string;
  label: string;
}

/** Files copied into every app, next to its package.json, so `import('weft-trace')` and `require('weft-trace')` resolve as in a user's app. */
const APP_FILES = ['burst-child.mjs'];

/**
 * The app for `rev` (a git revision), built once per commit and kept in the bench cache: the revision's tree is
 * extracted, its SDK package built with the tree's own tsup config (the repository's node_modules lend the build
 * tools), packed with `npm pack` and installed with `npm install` (dependencies from the registry or npm's cache,
 * install scripts off, optional peers left out) into an app folder. Either layout: packages/weft-trace (issue 38 on),
 * or the one root package of earlier commits.
 */
export function packedApp(rev: string): PackedApp {
  const commit = execFileSync('git', ['rev-parse', rev], { cwd: ROOT }).toString().trim();
  const short = commit.slice(0, 7);
  const home = `${CACHE}packed-${short}/`;
  const app = `${home}app/`;
  if (!existsSync(`${app}node_modules/weft-trace/package.json`)) {
    rmSync(home, { recursive: true, force: true });
    const tree = `${home}tree/`;
    mkdirSync(tree, { recursive: true });
    execFileSync('tar', ['-x', '-C', tree], { input: execFileSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1 << 30 }) });
    symlinkSync(`${ROOT}node_modules`, `${tree}node_modules`);
    const pkg = revHas(commit, 'packages/weft-trace') ? `${tree}packages/weft-trace/` : tree;
    execFileSync(process.execPath, [`${ROOT}node_modules/tsup/dist/cli-default.js`], { cwd: pkg, stdio: ['ignore', 'ignore', 'inherit'] });
    // the Node.js ESM entries over the CommonJS build (`node-addons` in exports, issue 47 on): build/finish.mjs writes them
    if (readFileSync(`${pkg}package.json`, 'utf8').includes('"node-addons"')) execFileSync(process.execPath, ['build/finish.mjs'], { cwd: pkg, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('npm', ['pack', '--silent', '--pack-destination', home], { cwd: pkg, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(home).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack of ${short} wrote no tarball`);
    mkdirSync(app, { recursive: true });
    writeFileSync(`${app}package.json`, JSON.stringify({ name: `bench-app-${short}`, private: true }));
    const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=optional', '--legacy-peer-deps', '--silent'];
    execFileSync('npm', ['install', ...flags, `${home}${tarball}`], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
    rmSync(tree, { recursive: true, force: true });
  }
  for (const file of APP_FILES) copyFileSync(new URL(`../${file}`, import.meta.url), `${app}${file}`);
  return { dir: app, label: `packed ${short}` };
}
