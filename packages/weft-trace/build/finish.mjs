// The last step of weft-trace's build (after tsup; docs/packaging.md): zod's declaration files vendored under dist/zod/
// (zod itself is bundled into the SDK's JavaScript, so the SDK's types must not import the 'zod' package).
// `weft-trace/server` is written after weft-server's build (build/server-forward.mjs).
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/** Copies zod's declarations (what its index.d.ts / .d.cts reaches) into dist/zod and points the SDK's at them. */
function vendorZodTypes() {
  const zodRoot = path.dirname(createRequire(import.meta.url).resolve('zod/package.json'));
  for (const ext of ['.d.ts', '.d.cts']) {
    const seen = new Set();
    const queue = [`index${ext}`];
    while (queue.length > 0) {
      const file = path.normalize(queue.pop());
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(path.join(zodRoot, file), 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\()["'](\.[^"']+)["']/g)) {
        const base = path.join(path.dirname(file), m[1]).replace(/\.c?js$/, '');
        const asFile = `${base}${ext}`;
        queue.push(exists(path.join(zodRoot, asFile)) ? asFile : path.join(base, `index${ext}`));
      }
      mkdirSync(path.join('dist/zod', path.dirname(file)), { recursive: true });
      writeFileSync(path.join('dist/zod', file), text);
    }
  }
  for (const file of walk('dist')) {
    if (!/\.d\.c?ts$/.test(file) || file.startsWith(`dist${path.sep}zod`)) continue;
    const text = readFileSync(file, 'utf8');
    let rel = path.relative(path.dirname(file), 'dist/zod/index').split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    const to = `${rel}${file.endsWith('.d.cts') ? '.cjs' : '.js'}`;
    // `from 'zod'`, a bare `import 'zod'` (a declaration chunk's side-effect import) and `import("zod")`
    const out = text.replace(/(from\s*|import\s*\(?\s*)['"]zod['"]/g, (_, head) => `${head}'${to}'`);
    if (out !== text) writeFileSync(file, out);
  }
}

function exists(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

vendorZodTypes();
// zod's package.json says "type": "module"; its .d.cts files are CommonJS by their extension, so no package.json is needed
