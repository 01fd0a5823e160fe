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

/**
 * The Node.js ESM entries (the `node-addons` condition under `import` in package.json): each re-exports the entry's CommonJS
 * build, so an app that imports weft-trace and one that requires it (or both, in one process) run one instance of
 * the SDK, and the traced call costs under `import` what it costs under `require` (issue 47: the split ESM build's
 * calls across its chunks cost 1.2x). The export names are read from the CommonJS build. `weft-trace/vitest` imports
 * vitest here (vitest refuses `require()`) and hands it to `vitest/core.cjs`. `node-addons` rather than `node`: Node.js
 * itself sets it (unless `--no-addons`), bundlers do not (esbuild, webpack, Vite and Rollup set `node` for a Node
 * target), so an app bundled to ESM keeps the ESM build (a CommonJS build inside an ESM bundle has no `__filename`),
 * and so do Deno, Bun and the edge runtimes. Fails the build when package.json does not point at a file written here.
 */
function writeNodeEntries() {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const require = createRequire(path.resolve('package.json'));
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const nodeFile = target?.import?.['node-addons'];
    if (subpath === './server' || typeof target !== 'object' || !target.require) continue;
    if (subpath === './register') {
      // `--import weft-trace/register`: the CommonJS build's start, awaited (the app's imports wait for the hooks)
      writeNode(nodeFile, `import core from '${relativeTo(nodeFile, './dist/auto-start.cjs')}';\nawait core.startFromEnv();\n`, subpath);
      continue;
    }
    const vitest = subpath === './vitest';
    const cjsFile = vitest ? './dist/vitest/core.cjs' : target.require.default;
    const hidden = ['__esModule', 'default', 'useVitest', 'useLangChainContext'];
    const names = Object.keys(require(path.resolve(cjsFile))).filter((n) => !hidden.includes(n)).sort();
    const rel = relativeTo(nodeFile, cjsFile);
    // `weft-trace/langchain`: an ESM app's runs read the configure hooks of @langchain/core's ESM build, so
    // registerWeftTracer() registers through that build's context module, not the CommonJS one its core requires
    const body = vitest
      ? `import * as vitest from 'vitest';\nimport core from '${rel}';\ncore.useVitest(vitest);\nexport const { ${names.join(', ')} } = core;\n`
      : subpath === './langchain'
        ? `import * as context from '@langchain/core/context';\nimport cjs from '${rel}';\ncjs.useLangChainContext(context);\nexport const { ${names.join(', ')} } = cjs;\n`
        : `import cjs from '${rel}';\nexport const { ${names.join(', ')} } = cjs;\n`;
    writeNode(nodeFile, body, subpath);
  }
}

/** `file` as a relative import from the folder of `from`. */
function relativeTo(from, file) {
  const rel = path.relative(path.dirname(from), file).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function writeNode(nodeFile, body, subpath) {
  if (typeof nodeFile !== 'string') throw new Error(`package.json exports["${subpath}"].import has no "node-addons" entry (build/finish.mjs writes one)`);
  mkdirSync(path.dirname(nodeFile), { recursive: true });
  writeFileSync(nodeFile, `// weft-trace${subpath.slice(1)} under Node.js: the CommonJS build, one instance for import and require (build/finish.mjs).\n${body}`);
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
writeNodeEntries();
// zod's package.json says "type": "module"; its .d.cts files are CommonJS by their extension, so no package.json is needed
