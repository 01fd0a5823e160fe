// Build config of weft-trace, the SDK (docs/packaging.md): `.`, `/schema`, `/otel`, `/langchain`, `/vitest`, `/wire`,
// `/client`, `/eval`, `/viewer` in ESM and CommonJS, zod bundled in (the install stays small: zod alone installs 8 MB; build/finish.mjs vendors its
// declarations); `spool-courier.js`, the process the exit starts to send a spool (both builds spawn this one ESM file,
// found beside them); the `weft` bin, which forwards to weft-server's CLI; `/server` (a forwarder to weft-server) is
// written by build/server-forward.mjs. weft-server (packages/weft-server) builds itself. The package's `build` script empties
// dist/ first: a `clean` here would race the configs below, which tsup builds at once.
import path from 'node:path';
import { defineConfig } from 'tsup';
import { boundaryPlugin } from './build/boundary-plugin.js';

// ESM-only dependencies are bundled into the CommonJS build so `require('weft-trace')` never hits ERR_REQUIRE_ESM.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];
// the optional peers the SDK's subpaths import (`weft-trace/vitest` imports vitest): never bundled, never reached
// from `.`; weft-server only through the `weft` bin's runtime import
const sdkExternal = ['better-sqlite3', 'vitest', 'weft-server'];
// `node:` stays on builtins (tsup strips it by default): Deno and workerd resolve `node:fs`, not always `fs`.
const common = { target: 'node20', removeNodeProtocol: false } as const;

// a relative import leaving src/ fails the build (build/boundary-plugin.ts)
const plugins = [boundaryPlugin(path.resolve('src'))];

const sdk = {
  index: 'src/index.ts',
  'schema/index': 'src/schema/index.ts',
  'otel/index': 'src/otel/index.ts',
  'langchain/index': 'src/integrations/langchain/index.ts',
  'vitest/index': 'src/vitest/index.ts',
  // what weft-server's server, CLI and viewer take from the SDK (docs/ARCHITECTURE.md#two-packages)
  'wire/index': 'src/wire-api.ts',
  'client/index': 'src/client-api.ts',
  'eval/index': 'src/eval-api.ts',
  'viewer/index': 'src/viewer-api.ts',
};
// the no-code route (docs/integrations.md): `/instrument` in both formats; `/register` is one file per format (ESM
// waits at its top level for the import loader; CommonJS cannot), sharing the SDK's chunks
const sdkWithHooks = { ...sdk, 'instrument/index': 'src/auto/index.ts' };
// bundled into the SDK (not dependencies): zod, which the SDK uses only through its own schemas
const sdkBundled = ['zod'];

export default defineConfig([
  // with the spool courier (src/export/courier-launch.ts spawns it from beside the SDK's module; not an export): it
  // shares the SDK's chunks instead of a copy of its own (zod and the export path, 0.9 MB)
  { ...common, entry: { ...sdkWithHooks, register: 'src/register.ts', 'spool-courier': 'src/spool-courier.ts' }, format: ['esm'], external: sdkExternal, noExternal: sdkBundled, esbuildPlugins: plugins },
  // splitting: zod once in a shared chunk, not once per entry; shims: `import.meta.url` (courier-launch.ts finds the
  // courier beside the module) becomes the file's URL, which esbuild leaves alone in a split CommonJS build
  // `vitest/core`: weft-trace/vitest without vitest, and `auto-start`: the no-code start without starting, for the
  // Node.js ESM entries of build/finish.mjs (vitest refuses require(); `--import` must wait for the start)
  // `register` requires `./auto-start.cjs` at run time, on the main thread only (src/register-require.ts): not bundled
  { ...common, entry: { ...sdkWithHooks, register: 'src/register-require.ts', 'vitest/core': 'src/vitest/core.ts', 'auto-start': 'src/auto/start-from-env.ts' }, format: ['cjs'], splitting: true, treeshake: true, shims: true, external: [...sdkExternal, './auto-start.cjs'], noExternal: [...esmOnly, ...sdkBundled], esbuildPlugins: plugins },
  // the declarations of both formats (.d.ts, .d.cts) from one TypeScript program, not one per format; noCheck: no
  // second full type check of the sources (tsup emits with noEmitOnError): the declarations are the same without it,
  // and `npm run typecheck` (tsc, run beside the tests) is the check
  { ...common, entry: sdkWithHooks, format: ['esm', 'cjs'], dts: { only: true, compilerOptions: { noCheck: true } }, external: sdkExternal },
  // the SDK's `weft` bin: runs weft-server's CLI when it is installed, else says how to get it
  { ...common, entry: { cli: 'src/cli-forward.ts' }, format: ['esm'], external: ['weft-server'], banner: { js: '#!/usr/bin/env node' }, esbuildPlugins: plugins },
]);
