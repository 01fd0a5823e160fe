// Build config: ESM and CommonJS bundles of the library, the server entry and the CLI.
import { defineConfig } from 'tsup';

// ESM-only dependencies are bundled into the CommonJS build so `require('weft-trace')` never hits ERR_REQUIRE_ESM.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];
// Optional dependencies are not external by default in tsup; the native SQLite module must stay a
// runtime import (loaded only by the server), never bundled.
const external = ['better-sqlite3'];

const entry = { index: 'src/index.ts', 'server/index': 'src/server/index.ts', 'schema/index': 'src/schema/index.ts', 'otel/index': 'src/otel/index.ts' };

export default defineConfig([
  { entry, format: ['esm'], sourcemap: true, clean: true, target: 'node20', external },
  { entry, format: ['cjs'], sourcemap: true, target: 'node20', external, noExternal: esmOnly },
  // the declarations of both formats (.d.ts, .d.cts) from one TypeScript program, not one per format
  { entry, format: ['esm', 'cjs'], dts: { only: true }, target: 'node20', external },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    external,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
