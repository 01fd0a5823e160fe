// Maps a line of the benchmark's tsup bundle back to the source module it came from (esbuild's `// path` markers).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MARKER = /^\/\/ (\S+\.(?:ts|js|mjs|cjs))$/;
const markersByFile = new Map<string, { line: number; module: string }[]>();

function markers(file: string): { line: number; module: string }[] {
  let list = markersByFile.get(file);
  if (!list) {
    list = [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const m = MARKER.exec(text);
        if (m?.[1]) list?.push({ line: i, module: m[1].replace(/^.*?src-snapshot\//, '').replace(/^.*?node_modules\//, '') });
      });
    markersByFile.set(file, list);
  }
  return list;
}

/**
 * The source module of `url`:`line` (0-based) when `url` is a file of the bundle in `distDir`, e.g.
 * `src/internal/ids.ts`; otherwise a short label: `node:<internal>`, the package name, or `(native)`.
 */
export function sourceModule(url: string, line: number, distDir: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  if (path.startsWith(distDir)) {
    let found = '(bundle)';
    for (const m of markers(path)) {
      if (m.line > line) break;
      found = m.module;
    }
    return found;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return pkg?.[1] ?? (path.includes('/') ? 'node internals' : path);
}
