// Build config: ESM and CommonJS bundles of the library, the server entry and the CLI.
import { defineConfig } from 'tsup';

// ESM-only dependencies are bundled into the CommonJS build so `require('weft')` never hits ERR_REQUIRE_ESM.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];

export default defineConfig([
  {
    entry: { index: 'src/index.ts', 'server/index': 'src/server/index.ts', 'schema/index': 'src/schema/index.ts', 'otel/index': 'src/otel/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  },
  {
    entry: { index: 'src/index.ts', 'server/index': 'src/server/index.ts', 'schema/index': 'src/schema/index.ts', 'otel/index': 'src/otel/index.ts' },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    noExternal: esmOnly,
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
