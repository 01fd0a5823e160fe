// Build config: two packages from the one `src/` (docs/packaging.md).
// - weft-trace (the SDK, `dist/`): `.`, `/schema`, `/otel`, `/langchain`, `/vitest` in ESM and CommonJS, zod bundled in (the install stays
//   small: zod alone installs 8 MB; build/finish.mjs vendors its declarations); `spool-courier.js`, the process the
//   exit starts to send a spool (both builds spawn this one ESM file, found beside them); the `weft` bin forwards to
//   weft-server's CLI; `/server` (a forwarder to weft-server) is written by build/finish.mjs.
// - weft-server (`packages/server/dist/`): the server (`startServer`, ...), the `weft` CLI and the viewer (copied
//   from `dist/ui` by build/finish.mjs after Vite).
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// ESM-only dependencies are bundled into the CommonJS build so `require('weft-trace')` never hits ERR_REQUIRE_ESM.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];
// Optional dependencies are not external by default in tsup; the native SQLite module must stay a
// runtime import (loaded only by the server), never bundled.
const external = ['better-sqlite3'];
// the optional peers the SDK's subpaths import (`weft-trace/vitest` imports vitest): never bundled, never reached from `.`
const sdkExternal = [...external, 'vitest'];
// `node:` stays on builtins (tsup strips it by default): Deno and workerd resolve `node:fs`, not always `fs`.
const common = { target: 'node20', removeNodeProtocol: false } as const;

// ---- weft-trace: the SDK
const sdk = { index: 'src/index.ts', 'schema/index': 'src/schema/index.ts', 'otel/index': 'src/otel/index.ts', 'langchain/index': 'src/integrations/langchain/index.ts', 'vitest/index': 'src/vitest/index.ts' };
// bundled into the SDK (not dependencies): zod, which the SDK uses only through its own schemas
const sdkBundled = ['zod'];

// ---- weft-server: the server, the CLI, the viewer
const serverEntry = { index: 'src/server/index.ts' };
const SERVER_OUT = 'packages/server/dist';
// weft-server's dependencies stay imports (tsup externalizes only those of the root package.json by itself)
const serverPkg = JSON.parse(readFileSync('packages/server/package.json', 'utf8')) as { dependencies: Record<string, string> };
const serverExternal = [...external, ...Object.keys(serverPkg.dependencies).filter((d) => !esmOnly.includes(d))];

export default defineConfig([
  // with the spool courier (src/export/courier-launch.ts spawns it from beside the SDK's module; not an export): it
  // shares the SDK's chunks instead of a copy of its own (zod and the export path, 0.9 MB)
  { ...common, entry: { ...sdk, 'spool-courier': 'src/spool-courier.ts' }, format: ['esm'], clean: true, external: sdkExternal, noExternal: sdkBundled },
  // splitting: zod once in a shared chunk, not once per entry; shims: `import.meta.url` (courier-launch.ts finds the
  // courier beside the module) becomes the file's URL, which esbuild leaves alone in a split CommonJS build
  { ...common, entry: sdk, format: ['cjs'], splitting: true, shims: true, external: sdkExternal, noExternal: [...esmOnly, ...sdkBundled] },
  // the declarations of both formats (.d.ts, .d.cts) from one TypeScript program, not one per format
  { ...common, entry: sdk, format: ['esm', 'cjs'], dts: { only: true }, external: sdkExternal },
  // the SDK's `weft` bin: runs weft-server's CLI when it is installed, else says how to get it
  { ...common, entry: { cli: 'src/cli-forward.ts' }, format: ['esm'], external: ['weft-server'], banner: { js: '#!/usr/bin/env node' } },

  { ...common, entry: serverEntry, outDir: SERVER_OUT, format: ['esm'], sourcemap: true, clean: true, external: serverExternal },
  { ...common, entry: serverEntry, outDir: SERVER_OUT, format: ['cjs'], sourcemap: true, external: serverExternal, noExternal: esmOnly },
  { ...common, entry: serverEntry, outDir: SERVER_OUT, format: ['esm', 'cjs'], dts: { only: true }, external: serverExternal },
  {
    ...common,
    entry: { cli: 'src/cli.ts' },
    outDir: SERVER_OUT,
    format: ['esm'],
    sourcemap: true,
    external: serverExternal,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
