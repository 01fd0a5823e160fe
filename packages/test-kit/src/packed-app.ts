/**
 * An app that installs this repository's packed packages as a user does (`npm pack` of the workspaces, `npm install`
 * of the tarballs into an empty app), shared by the runs of one checkout.
 *
 * The install is the same on every Node.js major (pure JavaScript; no native module is installed), and it was most of
 * the CPU of the files that use it (npm unpacking thousands of files: quick-start 25 s of CPU, sdk-install 10 s, on
 * each of the Node matrix's majors). So it is kept under `$TMPDIR/weft-packed-apps/<key>`, the key hashing
 * what the tarballs hold (each package's package.json and dist/) and how the app installs them; a run whose packages
 * changed installs again. Each test gets a fresh folder of its own whose `node_modules` links to the shared install,
 * so nothing a test writes (its program, an export) outlives it.
 * @module
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
// outside the repository (as a user's app is): Node.js and npx look for packages and bins in every node_modules up the
// tree, and the repository's own would answer for what the app lacks; in the OS's temp folder, not the run's own
// (global-setup.ts: removed at the run's end)
const CACHE = path.join(process.env['WEFT_TEST_OS_TMPDIR'] ?? tmpdir(), 'weft-packed-apps');

/** How the app is made: the workspaces packed, the app's package.json before the install, npm install's arguments. */
export interface PackedAppSpec {
  /** Workspace names to pack (`weft-trace`, `weft-server`). */
  workspaces: string[];
  /** The app's package.json (its `overrides` pin dependencies, say). */
  manifest: Record<string, unknown>;
  /** npm install's arguments after the tarballs (`--omit=optional`, `--offline`, ...). */
  installArgs: string[];
}

/** What an install folder holds (raised when that changes, so an older folder is never read as a newer one): 2 adds tarballs.json. */
const LAYOUT = 2;

/** Every file under `dir`, sorted, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/**
 * The key of a spec: a hash of each packed package's package.json and dist/ (names and bytes: what its `files` packs),
 * and of the spec. The README and LICENSE npm adds are left out: no test reads them from the install.
 */
function keyOf(spec: PackedAppSpec): string {
  const hash = createHash('sha256').update(`${LAYOUT}\0${JSON.stringify(spec)}`);
  for (const name of spec.workspaces) {
    const dir = path.join(ROOT, 'packages', name);
    for (const file of ['package.json', ...filesUnder(path.join(dir, 'dist')).map((f) => path.join('dist', f))]) {
      hash.update(`\0${name}/${file}\0`).update(readFileSync(path.join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 24);
}

/**
 * Packs the workspaces and installs them into `app` (which holds nothing yet); the names of the tarballs npm pack made
 * are kept in its `tarballs.json` (the tarballs themselves are removed).
 */
async function install(app: string, spec: PackedAppSpec): Promise<void> {
  const workspaces = spec.workspaces.flatMap((w) => ['--workspace', w]);
  const { stdout } = await run('npm', ['pack', '--silent', ...workspaces, '--pack-destination', app], { cwd: ROOT, timeout: 120_000 });
  const names = stdout.trim().split('\n').map((name) => name.trim());
  const tarballs = names.map((name) => path.join(app, name));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify(spec.manifest));
  await run('npm', ['install', ...tarballs, '--no-audit', '--no-fund', ...spec.installArgs], { cwd: app, timeout: 240_000 });
  for (const tarball of tarballs) rmSync(tarball);
  writeFileSync(path.join(app, TARBALLS), JSON.stringify(names));
}

const TARBALLS = 'tarballs.json';

/** An app of {@link packedApp}: its folder, and the file names of the tarballs installed into it (`weft-trace-0.1.0.tgz`). */
export interface PackedApp {
  dir: string;
  tarballs: string[];
}

/** Installs not used for a day: removed when a run makes a new one (each is tens of MB). */
function prune(): void {
  for (const name of readdirSync(CACHE)) {
    const dir = path.join(CACHE, name);
    if (Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A fresh folder holding the app's package.json and a `node_modules` link to the shared install of `spec` (made
 * first when no run made it yet: built aside, then renamed into place, so a run never sees half an install), with the
 * tarballs' names. The caller removes the folder (not the install).
 */
export async function packedApp(spec: PackedAppSpec): Promise<PackedApp> {
  const done = path.join(CACHE, keyOf(spec));
  if (existsSync(done)) {
    utimesSync(done, new Date(), new Date()); // used: kept by prune()
  } else {
    mkdirSync(CACHE, { recursive: true });
    prune();
    const building = mkdtempSync(path.join(CACHE, 'building-'));
    await install(building, spec);
    try {
      renameSync(building, done);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another run put the same install in place first
    }
  }
  const app = mkdtempSync(path.join(tmpdir(), 'weft-app-'));
  cpSync(path.join(done, 'package.json'), path.join(app, 'package.json'));
  symlinkSync(path.join(done, 'node_modules'), path.join(app, 'node_modules'), 'dir');
  return { dir: app, tarballs: JSON.parse(readFileSync(path.join(done, TARBALLS), 'utf8')) as string[] };
}
