// Build config of the trace viewer (src/ui/): Preact with Vite, built into dist/ui, served by `weft serve`. What it takes
// from the SDK, `weft-trace/viewer`, resolves as Node resolves it (the workspace's weft-trace, its built dist/viewer):
// a page for the browser carries its dependencies in its bundle.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/ui',
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../../dist/ui', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
});
