// Every TypeScript snippet of the README type-checks against the built package (imported by its
// name, as a user would), and the ones marked `ts runnable` run to exit 0 against a real server.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/server.js';
import { bundled } from '../helpers/ts-bundle.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
// inside the repository, so `weft-trace` resolves to this package (self-reference through `exports`)
const DIR = path.join(ROOT, '.readme-snippets');
const server = useTestServer();

interface Snippet { line: number; code: string; runnable: boolean }

/** The README's ```ts blocks, with the line each starts on. */
export function snippets(markdown: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|typescript)( runnable)?\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    found.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), runnable: Boolean(open[2]) });
    i = end;
  }
  return found;
}

const all = snippets(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const file = (s: Snippet): string => path.join(DIR, `readme-line-${s.line}.mts`);

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

describe('README snippets', () => {
  it('has snippets, some runnable', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((s) => s.runnable).length).toBeGreaterThanOrEqual(2);
  });

  it('type-check against the package, imported as weft-trace', async () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', DIR], { cwd: ROOT, timeout: 120_000 }).catch((err: { stdout: string }) => err);
    // names the README line of each error: .readme-snippets/readme-line-<N>.mts(row,col)
    expect(result.stdout).toBe('');
  }, 150_000);

  it.each(all.filter((s) => s.runnable).map((s) => [s.line, s] as const))('runs the snippet at README line %i against a real server', async (_line, s) => {
    const { stdout, stderr } = await run(process.execPath, [await bundled(path.relative(ROOT, file(s)))], {
      cwd: ROOT,
      env: { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: 'acme/readme' },
      timeout: 60_000,
    });
    expect(stderr).not.toMatch(/\[weft\] (warn|error)/);
    expect(typeof stdout).toBe('string');
  }, 90_000);
});
