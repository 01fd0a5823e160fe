// Build config of weft-server (docs/packaging.md): the server (`startServer`, ...) in ESM and CommonJS with its
// declarations, and the `weft` CLI; `vite build` (vite.config.ts) then adds the viewer in dist/ui.
// What the server and the CLI take from weft-trace (`weft-trace/wire`, `/client`, `/eval`, `/otel`) stays an import of
// the weft-trace package, a dependency like the others: one copy of the wire schema in an app that installs both.
// The package's `build` script empties dist/ first: a `clean` here would race the configs below, which tsup builds at once.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// the package's dependencies (weft-trace and its subpaths among them) stay imports; the native SQLite module (an
// optional dependency) is never bundled
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const external = ['better-sqlite3', ...Object.keys(pkg.dependencies).map((d) => new RegExp(`^${d}(/|$)`))];
// `node:` stays on builtins (tsup strips it by default): Deno and workerd resolve `node:fs`, not always `fs`.
const common = { target: 'node20', removeNodeProtocol: false, external, sourcemap: true } as const;
const entry = { index: 'src/server/index.ts' };

export default defineConfig([
  { ...common, entry, format: ['esm'] },
  { ...common, entry, format: ['cjs'] },
  // noCheck: tsup emits with noEmitOnError, a second full type check of the sources (about half this step's CPU);
  // the declarations are the same without it, and `npm run typecheck` (tsc, run beside the tests) is the check
  { ...common, entry, format: ['esm', 'cjs'], dts: { only: true, compilerOptions: { noCheck: true } } },
  { ...common, entry: { cli: 'src/cli.ts' }, format: ['esm'], banner: { js: '#!/usr/bin/env node' } },
  // the playground's worker, a process of its own per run (src/server/playground/worker-process.ts)
  { ...common, entry: { 'playground-worker': 'src/server/playground/worker/playground-worker.ts' }, format: ['esm'] },
]);
