// Build config of the trace viewer (ui/): Preact with Vite, built into dist/ui, served by `weft serve`.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'ui',
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../dist/ui', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
});
