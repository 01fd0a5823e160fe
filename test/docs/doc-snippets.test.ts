// Every TypeScript snippet of README.md and of the guides (docs/*.md) type-checks against the built package
// (imported by its name, as a user would), and the ones marked `ts runnable` run to exit 0 against a real server.
// Each block is one file, checked by one tsc and run once: a snippet moved between pages costs nothing more.
// A `ts fragment` block (an excerpt that uses names of the example file it comes from) is neither.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docFiles, fences, ROOT } from 'weft-test-kit/markdown.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const run = promisify(execFile);
// inside the repository, so `weft-trace` resolves to this package (self-reference through `exports`)
const DIR = path.join(ROOT, '.doc-snippets');
const server = useTestServer();

interface Snippet { doc: string; line: number; code: string; runnable: boolean }

/** The ```ts blocks of every page but the fragments, with the page and the line each starts on. */
const all: Snippet[] = docFiles().flatMap((doc) =>
  fences(readFileSync(path.join(ROOT, doc), 'utf8')).flatMap((f) => {
    const info = /^(ts|typescript)( runnable)?$/.exec(f.info);
    return info ? [{ doc, line: f.line, code: f.code, runnable: Boolean(info[2]) }] : [];
  }));
/** `.doc-snippets/README-line-43.mts`, `.doc-snippets/docs-tracing-line-9.mts`: tsc's errors name the page and line. */
const file = (s: Snippet): string => path.join(DIR, `${s.doc.replace(/\.md$/, '').replace(/\//g, '-')}-line-${s.line}.mts`);

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (const s of all) writeFileSync(file(s), `${s.code}\nexport {};\n`);
  writeFileSync(path.join(DIR, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, skipLibCheck: true, types: ['node'] },
    include: ['*.mts'],
  }));
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('README and docs/ snippets', () => {
  it('has snippets, some runnable, the quick start among them', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((s) => s.runnable).length).toBeGreaterThanOrEqual(2);
    expect(all.some((s) => s.doc === 'README.md' && s.runnable)).toBe(true);
  });

  it('type-check against the package, imported as weft-trace', async () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', DIR], { cwd: ROOT, timeout: 120_000 }).catch((err: { stdout: string }) => err);
    // names the page and line of each error: .doc-snippets/<page>-line-<N>.mts(row,col)
    expect(result.stdout).toBe('');
  }, 150_000);

  it.each(all.filter((s) => s.runnable).map((s) => [s.doc, s.line, s] as const))('runs the snippet at %s line %i against a real server', async (_doc, _line, s) => {
    const { stdout, stderr } = await run(process.execPath, [await bundled(path.relative(ROOT, file(s)))], {
      cwd: ROOT,
      env: { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: 'acme/readme' },
      timeout: 60_000,
    });
    expect(stderr).not.toMatch(/\[weft\] (warn|error)/);
    expect(typeof stdout).toBe('string');
  }, 90_000);
});
