// @weft-test: postgres
// evaluate() and Dataset against a real weft server (both stores): a dataset published and loaded back by ref, an
// evaluation recorded as Weave records one (root, one predict_and_score per row, summarize, scores as feedback),
// failures counted, trials and concurrency, and the built-in scorers.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, Dataset, evaluate, exactMatch, flush, init, jsonValid, numericCloseness, schemaMatch, stringSimilarity } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
type Row = { q: string; expected: string };
const ROWS: Row[] = [{ q: 'France', expected: 'Paris' }, { q: 'Italy', expected: 'Rome' }, { q: 'Spain', expected: 'Madrid' }];
const CAPITALS: Record<string, string> = { France: 'Paris', Italy: 'Rome', Spain: 'Madird' };

describe('evaluate() against weft serve', () => {
  let project: string;
  let client: Client;
  let calls: CallRecord[];
  let run: Awaited<ReturnType<typeof evaluate<Row, string>>>;

  it('publishes the dataset (table + object) and loads it back by ref', async () => {
    project = uniqueProject('eval');
    client = init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    const ds = new Dataset<Row>({ name: 'capitals', rows: ROWS });
    const published = await ds.publish(client, project);
    expect(published.ref).toBe(`weave:///${project}/object/capitals:${published.digest}`);
    expect((await ds.publish(client, project)).digest).toBe(published.digest);
    const loaded = await Dataset.load(client, published.ref);
    expect(loaded.rows).toEqual(ROWS);
    expect(loaded.published?.rowDigests).toEqual(published.rowDigests);
    const latest = await Dataset.load(client, `weave:///${project}/object/capitals:latest`);
    expect(latest.length).toBe(3);
    const objs = await client.objects.query({ project_id: project, filter: { base_object_classes: ['Dataset'] } });
    expect(objs.objs.map((o) => o.object_id)).toEqual(['capitals']);

    async function capital(row: Row): Promise<string> {
      if (row.q === 'Italy') throw new Error('no network');
      return CAPITALS[row.q]!;
    }
    function explode(): number {
      throw new Error('scorer broke');
    }
    run = await evaluate<Row, string>({ name: 'capitals v1', client, dataset: loaded as Dataset<Row>, task: capital, scorers: [exactMatch(), stringSimilarity(), explode], progress: false });
    await flush();
    calls = await readCalls(server().url, project, { include_feedback: true });
  });

  it('returns {id, summary, rows}: means, true fractions, failures counted per row, the run going on', () => {
    expect(run.rows.map((r) => [r.index, r.output, r.error ?? null])).toEqual([[0, 'Paris', null], [1, undefined, 'Error: no network'], [2, 'Madird', null]]);
    expect(run.rows[0]!.scores).toEqual({ exact_match: true, string_similarity: 1 });
    expect(run.rows[0]!.scorerErrors).toEqual({ explode: 'Error: scorer broke' });
    const s = run.summary;
    expect(s.rows).toBe(3);
    expect(s.scores['exact_match']).toEqual({ mean: 0.5, kind: 'boolean', count: 2, failures: 1 });
    expect(s.scores['string_similarity']!.mean).toBeCloseTo((1 + 1 - 2 / 6) / 2, 6);
    expect(s.failures).toEqual({ task: 1, scorers: { exact_match: 0, string_similarity: 0, explode: 2 } });
    expect(s.latencyMs.mean).toBeGreaterThanOrEqual(0);
    expect(s.interrupted).toBe(false);
  });

  it("is recorded as Weave records it: a root Evaluation.evaluate, one predict_and_score per row with the task's and scorers' calls beneath", () => {
    const root = calls.find((c) => c.id === run.id)!;
    expect(root.op_name).toBe('Evaluation.evaluate');
    expect(root.display_name).toBe('capitals v1');
    expect(root.parent_id).toBeNull();
    expect(root.inputs!['self']).toMatch(new RegExp(`^weave:///${project}/object/capitals-v1:`));
    expect(root.inputs!['model']).toBe('capital');
    expect(root.output).toMatchObject({ exact_match: { true_count: 1, true_fraction: 0.5 }, string_similarity: { mean: expect.any(Number) }, model_latency: { mean: expect.any(Number) } });
    const rows = calls.filter((c) => c.op_name === 'Evaluation.predict_and_score');
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.parent_id).toBe(root.id);
    const paris = rows.find((r) => (r.inputs!['example'] as Row).q === 'France')!;
    expect(paris.output).toMatchObject({ output: 'Paris', scores: { exact_match: true, string_similarity: 1 } });
    expect(calls.filter((c) => c.parent_id === paris.id).map((c) => c.op_name).sort()).toEqual(['capital', 'exact_match', 'explode', 'string_similarity']);
    const judged = calls.find((c) => c.op_name === 'exact_match' && c.parent_id === paris.id)!;
    expect(judged.inputs).toEqual({ row: ROWS[0], output: 'Paris', expected: 'Paris' });
    const summarize = calls.find((c) => c.op_name === 'Evaluation.summarize')!;
    expect(summarize.parent_id).toBe(root.id);
    expect(summarize.output).toEqual(root.output);
  });

  it("stores each score as feedback on the task's call (wandb.runnable.<scorer>, payload {output})", async () => {
    const task = calls.find((c) => c.op_name === 'capital' && c.output === 'Paris')!;
    const feedback = (task.summary as { feedback?: Array<{ feedback_type: string; payload: unknown }> }).feedback ?? [];
    expect(feedback.map((f) => [f.feedback_type, f.payload]).sort()).toEqual([['wandb.runnable.exact_match', { output: true }], ['wandb.runnable.string_similarity', { output: 1 }]]);
    const exact = feedback.find((f) => f.feedback_type === 'wandb.runnable.exact_match') as unknown as { runnable_ref: string; call_ref: string };
    const scorerCall = calls.find((c) => c.op_name === 'exact_match' && c.parent_id === task.parent_id)!;
    expect(exact.runnable_ref).toMatch(new RegExp(`^svc:///${project}/op/exact_match:[A-Za-z0-9XY]{43}$`));
    expect(exact.call_ref).toBe(`svc:///${project}/call/${scorerCall.id}`);
    const stats = await client.feedback.stats({ project_id: project, start: new Date(Date.now() - 3_600_000).toISOString(), feedback_type: 'wandb.runnable.exact_match', metrics: [{ json_path: 'output', value_type: 'boolean', aggregations: ['count_true', 'count'] }] });
    expect(stats.window_stats?.['output']).toMatchObject({ count_true: 1 });
  });

  it('runs every row trials times, at most concurrency at once, and reads object scores as named scores', async () => {
    let running = 0;
    let most = 0;
    const res = await evaluate({
      name: 'trials', client, progress: false, trials: 3, concurrency: 2,
      dataset: [{ x: 1, expected: 2 }, { x: 2, expected: 4 }, { x: 3, expected: 7 }],
      task: async (row: { x: number }) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setImmediate(r));
        running--;
        return row.x * 2;
      },
      scorers: [numericCloseness({ tolerance: 0.5 })],
    });
    expect(most).toBe(2);
    expect(res.rows.map((r) => `${r.index}.${r.trial}`)).toEqual(['0.0', '0.1', '0.2', '1.0', '1.1', '1.2', '2.0', '2.1', '2.2']);
    expect(res.summary.scores['numeric_closeness.close']!.mean).toBeCloseTo(2 / 3, 9);
    expect(res.summary.scores['numeric_closeness.abs_error']!.mean).toBeCloseTo(1 / 3, 9);
    await flush();
    const recorded = await readCalls(server().url, project, { filter: { trace_ids: [res.id] } });
    expect(recorded.filter((c) => c.op_name === 'Evaluation.predict_and_score')).toHaveLength(9);
    expect(recorded.find((c) => c.id === res.id)!.output).toMatchObject({ numeric_closeness: { close: { true_count: 6 }, abs_error: { mean: expect.any(Number) } } });
  });

  it('records a synchronous task and scorers (no promise per row) as it records async ones, async scorers beside them', async () => {
    const res = await evaluate({
      name: 'sync', client, progress: false,
      dataset: [{ x: 1, expected: 2 }, { x: 2, expected: 5 }],
      task: function twice(row: { x: number; expected: number }) {
        return row.x * 2;
      },
      scorers: [
        function same({ output, expected }: { output: number; expected: number }) {
          return output === expected;
        },
        async function later({ output }: { output: number }) {
          return output / 10;
        },
        async function broken(): Promise<number> {
          throw new Error('judge down');
        },
      ],
    });
    expect(res.rows.map((r) => [r.output, r.scores, r.scorerErrors])).toEqual([[2, { same: true, later: 0.2 }, { broken: 'Error: judge down' }], [4, { same: false, later: 0.4 }, { broken: 'Error: judge down' }]]);
    await flush();
    const recorded = await readCalls(server().url, project, { filter: { trace_ids: [res.id] }, include_feedback: true });
    const row = recorded.find((c) => c.op_name === 'Evaluation.predict_and_score' && (c.inputs!['example'] as { x: number }).x === 2)!;
    expect(row.output).toMatchObject({ output: 4, scores: { same: false, later: 0.4 } });
    const task = recorded.find((c) => c.op_name === 'twice' && c.parent_id === row.id)!;
    const feedback = (task.summary as { feedback?: Array<{ feedback_type: string; payload: unknown }> }).feedback ?? [];
    expect(feedback.map((f) => [f.feedback_type, f.payload]).sort()).toEqual([['wandb.runnable.later', { output: 0.4 }], ['wandb.runnable.same', { output: false }]]);
  });

  it('stops on abort with what was scored summarized', async () => {
    const controller = new AbortController();
    const res = await evaluate({
      name: 'stopped', client, progress: false, concurrency: 1, signal: controller.signal,
      dataset: Array.from({ length: 10 }, (_, i) => ({ i })),
      task: (row: { i: number }) => {
        if (row.i === 2) controller.abort();
        return row.i;
      },
      scorers: [],
    });
    expect(res.summary.interrupted).toBe(true);
    expect(res.rows.map((r) => r.index)).toEqual([0, 1, 2]);
  });
});

describe('built-in scorers', () => {
  const args = (output: unknown, expected?: unknown) => ({ row: {}, output, expected });
  it('compare text, JSON, schemas and numbers', () => {
    expect(exactMatch({ ignoreCase: true })(args(' Paris ', 'paris'))).toBe(true);
    expect(stringSimilarity()(args('kitten', 'sitting'))).toBeCloseTo(1 - 3 / 7, 9);
    expect(jsonValid()(args('{"a":1}'))).toBe(true);
    expect(jsonValid()(args('{a:1}'))).toBe(false);
    const schema = schemaMatch(z.object({ a: z.number() }));
    expect([schema(args('{"a":1}')), schema(args({ a: 'x' })), schema(args('nope'))]).toEqual([true, false, false]);
    expect(numericCloseness({ relativeTolerance: 0.1 })(args('105', 100))).toEqual({ close: true, abs_error: 5 });
    expect(numericCloseness()(args('n/a', 1))).toEqual({ close: false });
    expect(() => numericCloseness({ tolerance: -1 })).toThrow(/tolerance must be a number >= 0/);
  });
});
