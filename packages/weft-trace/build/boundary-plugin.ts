/**
 * The SDK's import boundary as an esbuild plugin (tsup.config.ts): a relative import from a file under `srcDir` that
 * resolves outside it (into weft-server's sources, say) fails the build, naming both. weft-server depends on
 * weft-trace, never the other way round (docs/packaging.md).
 * @module
 */
import path from 'node:path';
import type { Plugin } from 'esbuild';

/** The plugin for the sources under `srcDir` (an absolute folder). */
export function boundaryPlugin(srcDir: string): Plugin {
  const root = path.resolve(srcDir) + path.sep;
  return {
    name: 'weft-trace-boundary',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.startsWith(root)) return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        if (target.startsWith(root)) return undefined;
        return { errors: [{ text: `${path.relative(root, args.importer)} imports ${args.path}, outside weft-trace's src/ (the SDK never reaches weft-server)` }] };
      });
    },
  };
}
