// Loads the example corpus: the repository's own Markdown files, or the text files named on the command line.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { op } from '../../packages/weft-trace/src/index.js';

/** One loaded text file. `path` is relative to the corpus root. */
export interface Doc {
  path: string;
  text: string;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);

/** Markdown files under `dir`, recursively; none when `dir` does not exist. */
async function markdownUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : markdownUnder(path);
      return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
    }),
  );
  return nested.flat().sort();
}

/** The default corpus of a repository: README.md (if present) and Markdown under docs/ and examples/. */
export async function defaultCorpusPaths(root: string): Promise<string[]> {
  const readme = await readdir(root).then((names) => names.includes('README.md'), () => false);
  const [docs, examples] = await Promise.all([
    markdownUnder(join(root, 'docs')),
    markdownUnder(join(root, 'examples')),
  ]);
  return [...(readme ? [join(root, 'README.md')] : []), ...docs, ...examples];
}

/** Reads one file as UTF-8. */
export const readDocument = op(async function readDocument(path: string): Promise<string> {
  return readFile(path, 'utf8');
});

/** Reads every file in `paths` concurrently; unreadable files are reported and skipped. */
export const loadCorpus = op(async function loadCorpus(paths: string[], root: string): Promise<Doc[]> {
  const texts = await Promise.all(
    paths.map((path) =>
      readDocument(path).catch((error: unknown) => {
        console.warn(`  skipping ${path}: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }),
    ),
  );
  return paths.flatMap((path, i) => {
    const text = texts[i];
    return text === undefined ? [] : [{ path: relative(root, path), text }];
  });
}, { postprocessOutput: (docs) => docs.map((doc) => ({ path: doc.path, chars: doc.text.length })) });
