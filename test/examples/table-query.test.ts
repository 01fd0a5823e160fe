// Runs examples/table-query.ts as a child process against its in-process server and checks what it prints.
import { describe, expect, it } from 'vitest';
import { sha } from 'weft-test-kit/digest.js';
import { runExample } from 'weft-test-kit/examples.js';

describe('examples/table-query.ts', () => {
  it('creates the table, then prints it in insertion order, sorted top 3, in pages, and filtered by digest', async () => {
    const run = await runExample('examples/table-query.ts');
    expect(run.code, run.stderr).toBe(0);
    const firstRow = { question: 'Capital of France?', expected: 'Paris', result: { score: 1.0, latency_ms: 420 } };
    const canonical = '{"expected":"Paris","question":"Capital of France?","result":{"latency_ms":420,"score":1}}';
    expect(JSON.parse(canonical)).toEqual(firstRow);
    expect(run.stdout).toContain(`#0 1.00  Capital of France?  (${sha(canonical).slice(0, 8)}…)`);
    expect(run.stdout).toMatch(/Created table [A-Za-z0-9XY]{43} with 5 rows/);

    const section = (title: string): string[] =>
      run.stdout.split(title)[1]!.split('\n\n')[0]!.split('\n').filter((l) => l.trim() !== '');
    const indexes = (lines: string[]): string[] => lines.map((l) => /#(\d)/.exec(l)?.[1] ?? '?');
    expect(indexes(section('Insertion order:'))).toEqual(['0', '1', '2', '3', '4']);
    expect(indexes(section('then result.latency_ms asc:'))).toEqual(['0', '3', '4']);
    expect(section('offset 0, 2, 4):')).toEqual(['  page 1: #0 #1', '  page 2: #2 #3', '  page 3: #4']);
    expect(run.stdout).toMatch(/Rows picked by digest \(score 0\): 1\n {2}#2 0\.00 {2}2 \+ 2 \* 3\?/);
  }, 70_000);
});

describe('examples/eval-rag.ts', () => {
  it('evaluates two BM25 retrieval settings on the repository questions and compares them', async () => {
    const run = await runExample('examples/eval-rag.ts');
    expect(run.code, run.stderr).toBe(0);
    const ids = [...run.stdout.matchAll(/^(bm25-\S+): hit rate (\d\.\d\d), MRR (\d\.\d\d), 8 rows, run ([0-9a-f-]{36})$/gm)];
    expect(ids.map((m) => m[1])).toEqual(['bm25-300w-top1', 'bm25-80w-top3']);
    for (const m of ids) expect(Number(m[2])).toBeGreaterThan(0.5);
    expect(run.stdout).toMatch(/retrieval\.hit: \d\.\d\d → \d\.\d\d/);
    expect(run.stdout).toMatch(/rows: \d+ regressed, \d+ improved, \d+ changed, \d+ same/);
    expect(run.stdout).toContain(`weft eval compare ${ids[0]![4]} ${ids[1]![4]}`);
  }, 70_000);
});
