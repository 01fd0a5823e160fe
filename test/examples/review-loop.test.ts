// Runs examples/review-loop.ts as a child process against a server started here, then checks what it printed and what
// the server stored: the queue's progress and answers, the dataset's rows (the wrong answer corrected), the two
// evaluations' scores.
import { describe, expect, it } from 'vitest';
import { Client, Dataset } from 'weft-trace';
import { loadRun } from 'weft-trace/src/eval/runs/load-runs.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { runExample } from 'weft-test-kit/examples.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();

const post = async <T>(path: string, body: unknown): Promise<T> => {
  const res = await fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

describe('examples/review-loop.ts', () => {
  it('traces, reviews in a queue, keeps a corrected dataset and scores the fix 1.00 over it by name', async () => {
    const project = uniqueProject('review-loop');
    const run = await runExample('examples/review-loop.ts', [], { WEFT_BASE_URL: server().url, WEFT_PROJECT: project });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain('traced answer("What is the capital of Peru?") → Cusco');
    expect(out).toContain('queue capitals-triage: 4 items');
    expect(out).toContain('reviewed What is the capital of Peru? Cusco: thumbs down');
    expect(out.match(/: thumbs up$/gm)).toHaveLength(3);
    expect(out).toContain('queue capitals-triage: 4 of 4 reviewed');
    expect(out).toContain('dataset capitals-golden v0: 4 rows, 1 corrected');
    const shipped = /evaluate answer over capitals-golden: exact_match 0\.75 \(run (\S+)\)/.exec(out);
    const fixed = /evaluate answerFixed over capitals-golden: exact_match 1\.00 \(run (\S+)\)/.exec(out);
    expect(shipped, out).not.toBeNull();
    expect(fixed, out).not.toBeNull();
    const p = encodeURIComponent(project);
    expect(out).toContain(`  queue:   ${server().url}/#/p/${p}/queues/capitals-triage`);
    expect(out).toContain(`  dataset: ${server().url}/#/p/${p}/datasets/capitals-golden`);

    // the queue: all reviewed by ada, 8 answers (two fields per item), one thumbs down
    const { progress } = await post<{ progress: Record<string, unknown> }>('/weft/queues/read', { project_id: project, queue_id: 'capitals-triage' });
    expect(progress).toMatchObject({ total: 4, done: 4, pending: 0, reviewers: { ada: { done: 4, skipped: 0 } } });
    const { answers } = await post<{ answers: Array<{ feedback_type: string; payload: { value: unknown } }> }>('/weft/queues/answers', { project_id: project, queue_id: 'capitals-triage' });
    expect(answers).toHaveLength(8);
    expect(answers.filter((a) => a.feedback_type === 'wandb.annotation.correct' && a.payload.value === false)).toHaveLength(1);

    // the dataset: four rows from the calls, Peru's expected output corrected
    const client = new Client({ baseUrl: server().url, maxRetries: 0 });
    try {
      const dataset = await Dataset.load(client, `weave:///${project}/object/capitals-golden:latest`);
      const rows = dataset.rows as Array<{ input: { question: string }; expected: string; source_call: string }>;
      const byQuestion = Object.fromEntries(rows.map((r) => [r.input.question, r.expected]));
      expect(byQuestion).toEqual({
        'What is the capital of France?': 'Paris', 'What is the capital of Japan?': 'Tokyo',
        'What is the capital of Peru?': 'Lima', 'What is the capital of Kenya?': 'Nairobi',
      });
      for (const r of rows) expect(r.source_call).toMatch(new RegExp(`^svc:///${project}/call/`));

      // the evaluations as stored: the shipped app 3 of 4, the fix 4 of 4
      const [before, after] = await Promise.all([loadRun(client, project, shipped![1]!), loadRun(client, project, fixed![1]!)]);
      expect(before?.run.scores['exact_match']).toBe(0.75);
      expect(after?.run.scores['exact_match']).toBe(1);
      expect(after?.rows).toHaveLength(4);
    } finally {
      await client.close();
    }
  }, 65_000);
});
