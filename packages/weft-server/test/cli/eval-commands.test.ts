// `weft eval compare` (its regression gates) and `weft datasets`' row files (dataset-files.ts) of the built CLI, on runs
// and a dataset that the SDK's evaluate() and Dataset recorded into a real weft server, and `weft datasets show` of a
// dataset made from traced calls by `weft datasets add` (read by name, `name:vN` and ref).
import { describe, expect, it } from 'vitest';
import { Client, Dataset, evaluate, exactMatch, flush, init, op } from 'weft-trace';
import { listRuns } from 'weft-trace/eval';
import { readRows, writeRows } from '../../src/cli/dataset-files.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { spawnCli } from 'weft-test-kit/child-processes.js';
import { testStore } from 'weft-test-kit/test-store.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();

/** Runs the built CLI (npm run build first) against the file's server, piped. */
function cli(args: string[], project: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: project } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

// the CLI reads what either store answers alike (the calls query and /obj routes are covered on both): once is enough
describe.runIf(testStore() !== 'postgres')('weft eval and weft datasets (built CLI)', () => {
  const rows = [{ q: 'a', expected: 'A' }, { q: 'b', expected: 'B' }, { q: 'c', expected: 'C' }];
  let project: string;
  let base: string;
  let candidate: string;

  it('compare --fail-on-regression exits 1 on a regression, naming it and the rows that regressed', async () => {
    project = uniqueProject('evalcli');
    const client = init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    const dataset = new Dataset({ name: 'letters', rows });
    const upper = (row: { q: string }) => row.q.toUpperCase();
    const sloppy = (row: { q: string }) => (row.q === 'b' ? 'b' : row.q.toUpperCase());
    base = (await evaluate({ name: 'upper', client, dataset, task: upper, scorers: [exactMatch()], progress: false })).id;
    candidate = (await evaluate({ name: 'sloppy', client, dataset, task: sloppy, scorers: [exactMatch()], progress: false })).id;
    await flush();
    const run = await cli(['eval', 'compare', base, candidate, '--fail-on-regression', 'exact_match'], project);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/exact_match\s+1\s+0\.6667\s+-0\.3333/);
    expect(run.stdout).toMatch(/1 rows regressed, 0 improved, of 3/);
    expect(run.stdout).toContain('{"q":"b","expected":"B"}');
    expect(run.stderr).toMatch(/evaluation gate failed: exact_match regressed by 0\.3333 \(1 → 0\.6667\)/);
  });

  it('compare exits 0 when no gate fails (an improvement, a bound met); the runs are listed newest first', async () => {
    const run = await cli(['eval', 'compare', candidate, base, '--fail-on-regression', 'exact_match=0.01', '--fail-below', 'exact_match=0.9'], project);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/0 rows regressed, 1 improved/);
    const client = new Client({ baseUrl: server().url });
    const runs = await listRuns(client, project);
    await client.close();
    expect(runs.map((r) => [r.id, r.name, r.dataset, r.scores['exact_match']])).toEqual([[candidate, 'sloppy', 'letters', 2 / 3], [base, 'upper', 'letters', 1]]);
  });

  it('dataset rows from CSV, published, loaded and written as JSONL, are the same rows', async () => {
    const rowsIn = readRows('q,expected,meta\nwhat?,42,"{""k"":1}"\n"a, b",x,\n', 'csv', 'rows.csv');
    expect(rowsIn).toEqual([{ q: 'what?', expected: 42, meta: { k: 1 } }, { q: 'a, b', expected: 'x' }]);
    const client = new Client({ baseUrl: server().url });
    const { ref } = await new Dataset({ name: 'imported', rows: rowsIn }).publish(client, project);
    const loaded = await Dataset.load(client, ref);
    await client.close();
    expect(readRows(writeRows(loaded.rows, 'jsonl'), 'jsonl', 'x.jsonl')).toEqual(rowsIn);
    expect(readRows(writeRows(loaded.rows, 'csv'), 'csv', 'x.csv')).toEqual(rowsIn);
  });

  it('datasets add makes a dataset of traced calls (one corrected); show takes it by name, name:vN and ref', async () => {
    const fromCalls = uniqueProject('dscli');
    const client = init({ project: fromCalls, baseUrl: server().url, flushIntervalMs: 50 });
    const shout = op(function shout(word: string): string {
      return word.toUpperCase();
    });
    shout('a');
    shout('b');
    await flush();
    const [a, b] = await readCalls(server().url, fromCalls);
    const added = await cli(['datasets', 'add', 'shouts', a!.id], fromCalls);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toBe('shouts v0: 1 rows (1 added, 0 replaced)\n');
    const corrected = await cli(['datasets', 'add', 'shouts', b!.id, '--expected', 'B!'], fromCalls);
    expect(corrected.stderr).toBe('shouts v1: 2 rows (1 added, 0 replaced)\n');
    const tooMany = await cli(['datasets', 'add', 'shouts', a!.id, b!.id, '--expected', '"x"'], fromCalls);
    expect([tooMany.code, tooMany.stderr]).toEqual([2, expect.stringContaining('--expected corrects one call; 2 call ids were given')]);
    const v1 = await client.datasets.addCalls({ project_id: fromCalls, dataset: 'shouts', calls: [{ id: b!.id, expected: 'B!' }] });
    expect([v1.version_index, v1.created, `${v1.ref}\n`]).toEqual([1, false, corrected.stdout]);
    const line = (call: { id: string; inputs?: unknown }, expected: string): string => `${JSON.stringify({ input: call.inputs, expected, source_call: `svc:///${fromCalls}/call/${call.id}` })}\n`;
    const latest = await cli(['datasets', 'show', 'shouts'], fromCalls);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toBe(line(a!, 'A') + line(b!, 'B!'));
    expect(latest.stderr).toContain(`${v1.ref}  2 rows`);
    expect((await cli(['datasets', 'show', 'shouts:v0'], fromCalls)).stdout).toBe(line(a!, 'A'));
    expect((await cli(['datasets', 'show', v1.ref.replace('weave:', 'svc:')], fromCalls)).stdout).toBe(line(a!, 'A') + line(b!, 'B!'));
  });
});
