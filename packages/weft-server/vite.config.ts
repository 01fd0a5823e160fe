// Build config of the trace viewer (src/ui/): Preact with Vite, built into dist/ui, served by `weft serve`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/ui',
  base: './',
  // what the viewer takes from the SDK, by its workspace name (as src/ui/tsconfig.json maps it for the type check)
  resolve: { alias: { 'weft-trace/viewer': fileURLToPath(new URL('../weft-trace/src/viewer-api.ts', import.meta.url)) } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../../dist/ui', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
});
