// @weft-test: isolated (a vitest run of its own, in a child process, under this one's environment)
// weft-trace/vitest in a sample project (test/fixtures/vitest-evals, with the example of docs/evaluations.md as a second
// vitest project), run by a child vitest against a real weft server: each file's suite stored as one evaluation run
// (read back as `weft eval ls` reads runs) with its scores as feedback and a summary line linking it; a threshold a
// row misses fails that row's test and the file. One child per case: a child vitest starts in ~3 s of CPU.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '../../src/index.js';
import { listRuns, loadRun } from '../../src/eval/runs/load-runs.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/vitest-evals');
const server = useTestServer();
const llm = useFakeLlm();

/**
 * Runs the fixture's suites in a child vitest (the built `weft-trace/vitest`) with `env`; resolves with its exit code and
 * output. Recorded model calls off: in CI a describeEval would replay its model calls, and the fixture has no cassette.
 */
function childVitest(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; out: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const child = spawnTracked(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', FIXTURE, ...args], {
    cwd: FIXTURE, env: { ...base, NO_COLOR: '1', FORCE_COLOR: '0', WEFT_LLM_CACHE: 'off', WEFT_BASE_URL: server().url, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

describe('describeEval in a child vitest', () => {
  it('records each file as one evaluation run: rows beneath one root, scores as feedback, a summary line with the link', async () => {
    const project = uniqueProject('vitest-eval');
    const { code, out } = await childVitest({ WEFT_PROJECT: project, CAPITALS_THRESHOLD: '0', FAKE_OPENAI_URL: llm().openaiURL });
    expect(code, out).toBe(0);
    const client = new Client({ baseUrl: server().url });
    onTestFinished(() => client.close());
    const runs = await listRuns(client, project);
    expect(runs.map((r) => [r.name, r.dataset, r.scores]).sort()).toEqual([
      ['capitals', 'capitals-dataset', { exact_match: 2 / 3 }],
      ['one-liners', 'one-liners-dataset', { said: 1 }],
      ['ticket-triage', 'ticket-triage-dataset', { exact_match: 1, routing: 1 }],
    ]);
    const capitals = runs.find((r) => r.name === 'capitals')!;
    const run = (await loadRun(client, project, capitals.id))!;
    expect(run.rows.map((r) => [r.example, r.output, r.scores])).toEqual([
      [{ country: 'France', expected: 'Paris' }, 'Paris', { exact_match: true }],
      [{ country: 'Japan', expected: 'Tokyo' }, 'Tokyo', { exact_match: true }],
      [{ country: 'Peru', expected: 'Lima' }, 'Cusco', { exact_match: false }],
    ]);
    const calls = await readCalls(server().url, project, { include_feedback: true });
    const tasks = calls.filter((c) => c.op_name === 'capitalOf');
    expect(new Set(tasks.map((c) => c.trace_id))).toEqual(new Set([capitals.id]));
    const feedback = (c: (typeof calls)[number]) => ((c.summary as { feedback?: Array<{ feedback_type: string; payload: unknown }> }).feedback ?? []).map((f) => [f.feedback_type, f.payload]);
    expect(tasks.map(feedback)).toEqual([true, true, false].map((v) => [['wandb.runnable.exact_match', { output: v }]]));
    const link = (id: string): string => `${server().url}/#/p/${encodeURIComponent(project)}/trace/${id}`;
    expect(out).toContain(`weft eval "capitals": 3 rows, exact_match 0.667, ${link(capitals.id)}\n`);
    expect(out).toContain(`weft eval "ticket-triage": 4 rows, exact_match 1, routing 1, ${link(runs.find((r) => r.name === 'ticket-triage')!.id)}\n`);
    // the model calls of a suite's task: 2 requests of 1,200 + 80 tokens, priced by the server
    const oneLiners = runs.find((r) => r.name === 'one-liners')!;
    expect(oneLiners.costUsd).toBeGreaterThan(0);
    expect(out).toContain(`weft eval "one-liners": 2 rows, said 1, 2560 tokens, $${oneLiners.costUsd!.toFixed(4)}, ${link(oneLiners.id)}\n`);
    expect(out).not.toContain('weft: trace viewer:'); // the first-trace notice would repeat the run's link
  });

  it('fails the row below the threshold, naming it, its score and its call, and the file exits non-zero', async () => {
    const project = uniqueProject('vitest-eval-fail');
    const { code, out } = await childVitest({ WEFT_PROJECT: project, CAPITALS_THRESHOLD: '1' }, ['--project', 'fixture', 'capitals']);
    expect(code, out).toBe(1);
    expect(out).toMatch(/FAIL .*capitals\.eval\.test\.ts > capitals > Peru/);
    expect(out).toContain('Error: Peru: exact_match = false < 1; output: "Cusco"');
    expect(out).toMatch(new RegExp(`Tests +1 failed \\| 2 passed`));
    expect(out).toContain('weft eval "capitals": 3 rows, exact_match 0.667, 1 failed,');
  });
});
