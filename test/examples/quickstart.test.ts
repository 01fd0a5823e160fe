// Runs the quickstart demo as a child process and checks what it prints.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

const TIMEOUT_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `examples/quickstart.ts ...args` against an in-process server. */
function runDemo(args: string[] = []): Promise<Run> {
  // the demo stores into WEFT_DEMO_DB when no server runs on the default port: a file of its own, not the repository's weft.db
  return runExample('examples/quickstart.ts', args, { WEFT_DEMO_DB: join(tmpdir(), `weft-demo-${process.pid}-${Date.now()}.db`), WEFT_DISABLED: undefined });
}

/** The tree lines of the output: a status mark, an op name, then a duration in ms. */
const treeLines = (stdout: string): string[] => stdout.split('\n').filter((line) => /^ *[✓✗…] \w+ +(<?[\d.]+ ms|—)/.test(line));
const opName = (line: string): string => line.trim().split(/\s+/)[1] ?? '';
const depth = (line: string): number => (line.match(/^ */)?.[0].length ?? 0) / 2;

describe('npm run demo (examples/quickstart.ts)', () => {
  it('exits 0 and prints at least 3 trace trees with every step and the caught error', async () => {
    const run = await runDemo();
    expect(run.code, run.stderr).toBe(0);

    const headings = run.stdout.split('\n').filter((line) => /^Trace \d+\/\d+ · /.test(line));
    expect(headings.length).toBeGreaterThanOrEqual(3);

    const lines = treeLines(run.stdout);
    const names = new Set(lines.map(opName));
    for (const step of ['prepareIndex', 'loadCorpus', 'readDocument', 'chunkDocuments', 'chunkText', 'buildIndex',
      'answerQuestion', 'retrieve', 'rankChunks', 'extractSentences']) {
      expect(names, `op ${step} in the trees`).toContain(step);
    }

    const roots = lines.filter((line) => depth(line) === 0).map(opName);
    expect(roots.filter((name) => name === 'answerQuestion')).toHaveLength(4);
    expect(roots).toContain('prepareIndex');

    const failed = lines.filter((line) => line.includes('✗'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/^ {2}✗ retrieve +<?[\d.]+ ms {2}error: NoMatchError: no chunk contains any of the terms/);

    expect(run.stdout).toMatch(/A: .*6345/);
    expect(run.stdout).toContain('A: (no answer: no chunk contains any of the terms');
  }, TIMEOUT_MS + 5_000);

  it('indexes the text files named on the command line instead of the repository docs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-demo-'));
    try {
      const file = join(dir, 'facts.txt');
      await writeFile(file, 'The local server listens on port 6345 by default.\n\nA sync function wrapped with op stays sync.\n');
      const run = await runDemo([file]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Indexed 1 chunk from 1 file/);
      expect(treeLines(run.stdout).filter((line) => opName(line) === 'readDocument')).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS + 5_000);
});
