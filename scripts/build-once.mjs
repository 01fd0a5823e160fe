// `npm test`'s build step (package.json `test:run`): runs `npm run build` unless the packages' dist/ folders are the
// ones it built last from the very inputs they have now. After a build it writes node_modules/.cache/weft-build/stamp:
// the inputs' digest (every file under each package's src/ and build/, its configs and package.json, the root's
// tsconfigs and package-lock.json, Node's major) and the dist/ folders' listing (each file's path, size and mtime), so
// a dist/ rebuilt, edited or deleted since, or a changed input, builds again. A fresh clone (CI) has no stamp and always
// builds; a second `npm test` over unchanged sources skips the build's ~70 s of CPU. `npm run build` always builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['packages/weft-trace', 'packages/weft-server'];
const INPUTS = [
  ...PACKAGES.flatMap((p) => ['src', 'build', 'package.json', 'tsconfig.json', 'tsup.config.ts', 'vite.config.ts'].map((f) => `${p}/${f}`)),
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.json',
];
const STAMP = path.join(ROOT, 'node_modules', '.cache', 'weft-build', 'stamp');

/** Every file under `rel` (a file or a folder from the root), sorted, as paths from the root. */
function filesUnder(rel) {
  const abs = path.join(ROOT, rel);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs, { recursive: true })
    .map((f) => path.join(rel, f))
    .filter((f) => statSync(path.join(ROOT, f)).isFile())
    .sort();
}

/** The digest of the build's inputs: each file's path and bytes. */
function inputsDigest() {
  const hash = createHash('sha256').update(`node ${process.versions.node.split('.')[0]}\n`);
  for (const file of INPUTS.flatMap(filesUnder)) hash.update(`${file}\n`).update(readFileSync(path.join(ROOT, file)));
  return hash.digest('hex');
}

/** The dist/ folders as they are: each file's path, size and mtime (empty for a package with no dist/). */
function distListing() {
  const hash = createHash('sha256');
  for (const file of PACKAGES.flatMap((p) => filesUnder(`${p}/dist`))) {
    const st = statSync(path.join(ROOT, file));
    hash.update(`${file}\t${st.size}\t${st.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const inputs = inputsDigest();
const stampNow = () => `${inputs}\n${distListing()}\n`;
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stampNow()) {
  console.log(`build: skipped, dist/ is what the last build made from these inputs (${inputs.slice(0, 12)}; \`npm run build\` builds anyway)`);
} else {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, stampNow());
}
