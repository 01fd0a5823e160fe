// Build config of weft-server (docs/packaging.md): the server (`startServer`, ...) in ESM and CommonJS with its
// declarations, and the `weft` CLI; `vite build` (vite.config.ts) then adds the viewer in dist/ui.
// What the server and the CLI take from weft-trace (`weft-trace/internal`, `weft-trace/schema`, ...: tsconfig.json's
// `paths`, to the SDK's sources in the workspace) is bundled in, so the package runs without weft-trace installed.
// The package's `build` script empties dist/ first: a `clean` here would race the configs below, which tsup builds at once.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// ESM-only dependencies are bundled into the CommonJS build so `require('weft-server')` never hits ERR_REQUIRE_ESM.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];
// the package's dependencies stay imports; the native SQLite module (an optional dependency) is never bundled
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const external = ['better-sqlite3', ...Object.keys(pkg.dependencies).filter((d) => !esmOnly.includes(d))];
// weft-trace's own names are not dependencies: bundled from its sources
const noExternal = [/^weft-trace(\/|$)/];
// `node:` stays on builtins (tsup strips it by default): Deno and workerd resolve `node:fs`, not always `fs`.
const common = { target: 'node20', removeNodeProtocol: false, external, sourcemap: true } as const;
const entry = { index: 'src/server/index.ts' };

export default defineConfig([
  { ...common, entry, format: ['esm'], noExternal },
  { ...common, entry, format: ['cjs'], noExternal: [...noExternal, ...esmOnly] },
  { ...common, entry, format: ['esm', 'cjs'], dts: { only: true }, noExternal },
  { ...common, entry: { cli: 'src/cli.ts' }, format: ['esm'], noExternal, banner: { js: '#!/usr/bin/env node' } },
]);
