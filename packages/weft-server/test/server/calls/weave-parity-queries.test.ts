// @weft-test: postgres (what the server answers to Weave's queries, on both stores)
// Cases of Weave's own tests, ported (issue 54): summary.weave.trace_name (tests/trace/test_client_trace.py),
// filter.ancestor_ids (test_trace_call_query_filter_ancestor_ids), feedback in call queries (tests/trace/test_feedback.py:
// test_filter_by_feedback, test_filter_and_sort_by_feedback, test_filter_by_wildcard_feedback_with_multiple_items) and
// the trigger_ref prefix of feedback stats (tests/trace_server/query_builder/test_feedback_stats.py). Each gives the data
// the Weave test stores, the request, and the answer Weave's trace server gives; feedback refs in the spec's svc:///.
import { describe, expect, it } from 'vitest';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, type Json, post, query, start, startItem } from 'weft-test-kit/server-http.js';

const server = useTestServer();
const T0 = Date.parse('2024-05-01T10:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const weave = (r: Json): Json => (r['summary'] as Json)['weave'] as Json;

/** Runs `fn` once, however many tests await it (the seed of a describe). */
const once = (fn: () => Promise<void>): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
};

describe('summary.weave.trace_name', () => {
  it('test_trace_server_call_start_and_end: /call/start under a parent never stored, before and after its end', async () => {
    const project = uniqueProject('weave-tn-start');
    const s = start({ project_id: project, id: 'c1', op_name: 'test_name', trace_id: 't1', parent_id: 'never-stored', attributes: { a: 5 }, inputs: { b: 5 } });
    expect((await post(server(), '/call/start', { start: s })).status).toBe(200);
    const [running] = await query(server(), { project_id: project, filter: { call_ids: ['c1'] } });
    expect(weave(running!)).toEqual({ trace_name: 'test_name', status: 'running' });
    await batch(server(), [endItem(end('c1', { project_id: project, ended_at: at(1), summary: { c: 5 }, output: { d: 5 } }))]);
    const [ended] = await query(server(), { project_id: project, filter: { call_ids: ['c1'] } });
    expect((ended!['summary'] as Json)['c']).toBe(5);
    expect(weave(ended!)).toEqual({ trace_name: 'test_name', status: 'success', latency_ms: 1000 });
  });

  it('test_call_query_stream_columns: columns [id, summary] of a Weave op ref give its short name', async () => {
    const project = uniqueProject('weave-tn-cols');
    await batch(server(), [
      startItem(start({ project_id: project, id: 'c1', op_name: `weave:///${project}/op/alpha_op:0123abcd`, started_at: at(0) })),
      endItem(end('c1', { project_id: project, ended_at: at(0.5) })),
    ]);
    const [c1] = await query(server(), { project_id: project, columns: ['id', 'summary'] });
    expect(weave(c1!)['trace_name']).toBe('alpha_op');
  });

  const project = uniqueProject('weave-tn-sort');
  const seed = once(async () => {
    // test_calls_query_sort_by_trace_name: a display name, an object ref, a plain name
    await batch(server(), [
      startItem(start({ project_id: project, id: 'dn', op_name: 'simple_op', display_name: 'B_display_name', started_at: at(0) })),
      startItem(start({ project_id: project, id: 'ref', op_name: 'weave:///user/project/object/A_ref_name:digest', started_at: at(1) })),
      startItem(start({ project_id: project, id: 'plain', op_name: 'C_plain_op', started_at: at(2) })),
    ].flatMap((item, i) => [item, endItem(end(['dn', 'ref', 'plain'][i]!, { project_id: project, ended_at: at(i + 0.5), output: 'result' }))]));
  });

  it.each([
    ['asc', ['ref', 'dn', 'plain'], ['A_ref_name', 'B_display_name', 'C_plain_op']],
    ['desc', ['plain', 'dn', 'ref'], ['C_plain_op', 'B_display_name', 'A_ref_name']],
  ])('test_calls_query_sort_by_trace_name (with include_costs): %s', async (direction, order, names) => {
    await seed();
    const calls = await query(server(), { project_id: project, sort_by: [{ field: 'summary.weave.trace_name', direction }], include_costs: true, columns: ['id', 'summary'] });
    expect(ids(calls)).toEqual(order);
    expect(calls.map((c) => weave(c)['trace_name'])).toEqual(names);
  });
});

describe('test_trace_call_query_filter_ancestor_ids', () => {
  const project = uniqueProject('weave-ancestors');
  // root_op() twice: each calls middle_op_1 and middle_op_2, each of which calls leaf_op_1 and leaf_op_2
  const tree: Record<string, string[]> = {};
  const seed = once(async () => {
    const items: Json[] = [];
    let n = 0;
    const call = (op: string, parent?: string): string => {
      const id = `${op}-${n}`;
      items.push(startItem(start({ project_id: project, id, op_name: op, started_at: at(n++), ...(parent ? { parent_id: parent, trace_id: parent.split('/')[0] } : {}) })));
      if (parent) (tree[parent] ??= []).push(id);
      return id;
    };
    for (let r = 0; r < 2; r++) {
      const root = call('root_op');
      for (const m of ['middle_op_1', 'middle_op_2']) {
        const middle = call(m, root);
        call('leaf_op_1', middle);
        call('leaf_op_2', middle);
      }
    }
    await batch(server(), items);
  });
  const below = (id: string): string[] => (tree[id] ?? []).flatMap((c) => [c, ...below(c)]);

  it('an empty list matches no call (no filter at all matches every call)', async () => {
    await seed();
    expect(await query(server(), { project_id: project, filter: { ancestor_ids: [] } })).toEqual([]);
    expect(await query(server(), { project_id: project, filter: { ancestor_ids: null } })).toHaveLength(14);
  });

  it('each call with descendants: every call under it, at any depth, not itself', async () => {
    await seed();
    expect(Object.keys(tree)).toHaveLength(6);
    for (const id of Object.keys(tree)) {
      const found = ids(await query(server(), { project_id: project, filter: { ancestor_ids: [id] } }));
      expect(new Set(found), id).toEqual(new Set(below(id)));
    }
    const [a, b] = Object.keys(tree).filter((k) => k.startsWith('root_op'));
    expect(await query(server(), { project_id: project, filter: { ancestor_ids: [a!, b!] } })).toHaveLength(12);
  });
});

describe('feedback in call queries (tests/trace/test_feedback.py)', () => {
  const project = uniqueProject('weave-fb');
  const model = `weave:///${project}/op/my_model:m0`;
  const scorer = (name: string): string => `svc:///${project}/op/${name}:s0`;
  const runnable = (name: string, output: Json, callId: string, i: number): Json => ({
    project_id: project, svc_ref: `svc:///${project}/call/${callId}`, feedback_type: `wandb.runnable.${name}`,
    runnable_ref: scorer(name), call_ref: `svc:///${project}/call/score-${name}-${i}`, payload: { output },
  });
  // populate_feedback: my_model(x) for x in 0..3, each scored by my_scorer; and my_model2(x) for x in 0..2, each scored
  // by my_scorer_a and my_scorer_b (test_filter_by_wildcard_feedback_with_multiple_items)
  const seed = once(async () => {
    const outputs = ['a', 'x', 'c', 'y'];
    const model2 = `weave:///${project}/op/my_model2:m0`;
    await batch(server(), [
      ...outputs.map((out, i) => [startItem(start({ project_id: project, id: `m${i}`, op_name: model, started_at: at(i), inputs: { x: i } })), endItem(end(`m${i}`, { project_id: project, ended_at: at(i + 0.5), output: out }))]).flat(),
      ...[0, 1, 2].map((i) => [startItem(start({ project_id: project, id: `w${i}`, op_name: model2, started_at: at(10 + i), inputs: { x: i } })), endItem(end(`w${i}`, { project_id: project, ended_at: at(10 + i + 0.5), output: `result_${i}` }))]).flat(),
    ]);
    const expected = ['a', 'b', 'c', 'd'];
    const feedback = [
      ...outputs.map((out, i) => runnable('my_scorer', { model_output: out, expected: expected[i], match: out === expected[i], score: i + 0.5 }, `m${i}`, i)),
      ...[0, 1, 2].flatMap((i) => [
        runnable('my_scorer_a', { scorer_a: { is_match: true, score: i * 10 } }, `w${i}`, i),
        runnable('my_scorer_b', { scorer_b: { is_match: true, score: i * 100 } }, `w${i}`, i),
      ]),
    ];
    const res = await post(server(), '/feedback/batch/create', { batch: feedback });
    expect(res.status, await res.clone().text()).toBe(200);
  });
  const field = (path: string): string => `feedback.[wandb.runnable.my_scorer].payload.output.${path}`;
  const q = async (body: Json, op = model): Promise<unknown[]> =>
    (await seed(), ids(await query(server(), { project_id: project, filter: { op_names: [op] }, ...body })));
  const cmp = (op: string, path: string, value: unknown): Json => ({ query: { $expr: { [op]: [{ $getField: path }, { $literal: value }] } } });

  it('test_filter_by_feedback: $eq and $gt with strings (a boolean as "true" / "false"), typed literals, $contains', async () => {
    const cases: [string, string, string[], string[]][] = [
      [field('model_output'), 'a', ['m0'], ['m1', 'm2', 'm3']],
      [field('expected'), 'c', ['m2'], ['m3']],
      [field('match'), 'false', ['m1', 'm3'], ['m0', 'm2']],
    ];
    for (const [path, value, eq, gt] of cases) {
      expect(await q(cmp('$eq', path, value)), `${path} = ${value}`).toEqual(eq);
      expect(await q(cmp('$gt', path, value)), `${path} > ${value}`).toEqual(gt);
    }
    expect(await q(cmp('$eq', field('match'), true))).toEqual(['m0', 'm2']);
    expect(await q(cmp('$gt', field('score'), 1.5))).toEqual(['m2', 'm3']);
    const contains = (substr: string): Json => ({ query: { $expr: { $contains: { input: { $getField: field('model_output') }, substr: { $literal: substr } } } } });
    expect([await q(contains('a')), await q(contains('x'))]).toEqual([['m0'], ['m1']]);
  });

  it('test_filter_and_sort_by_feedback: match = "true", sorted by model_output desc', async () => {
    const sort_by = [{ field: field('model_output'), direction: 'desc' }];
    expect(await q({ ...cmp('$eq', field('match'), 'true'), sort_by })).toEqual(['m2', 'm0']);
  });

  it('test_filter_by_wildcard_feedback_with_multiple_items: [*] finds the value in whichever feedback holds it', async () => {
    const model2 = `weave:///${project}/op/my_model2:m0`;
    for (const path of ['feedback.[*].payload.output.scorer_b.is_match', 'feedback.[*].payload.output.scorer_a.is_match',
      'feedback.[wandb.runnable.my_scorer_a].payload.output.scorer_a.is_match']) {
      expect(await q(cmp('$eq', path, 'true'), model2), path).toEqual(['w0', 'w1', 'w2']);
    }
  });
});

describe('trigger_ref in feedback stats (TestTriggerRefWhereClause)', () => {
  it('an exact ref matches its version; a ref ending in :* every version of the object', async () => {
    const project = uniqueProject('weave-trigger');
    const ref = (v: string): string => `svc:///${project}/object/my-monitor:${v}`;
    const batchBody = ['v1', 'v2', 'v2'].map((v, i) => ({
      project_id: project, svc_ref: `svc:///${project}/call/c${i}`, feedback_type: 'score', payload: { score: i }, trigger_ref: ref(v),
    }));
    expect((await post(server(), '/feedback/batch/create', { batch: batchBody })).status).toBe(200);
    const count = async (trigger_ref: string): Promise<unknown> => {
      const res = await post(server(), '/feedback/stats', { project_id: project, start: '2000-01-01T00:00:00Z', end: '2100-01-01T00:00:00Z', trigger_ref, granularity: 86_400 * 365 * 200 });
      expect(res.status).toBe(200);
      return ((await res.json()) as { buckets: { count: number }[] }).buckets.reduce((n, b) => n + b.count, 0);
    };
    expect([await count(ref('v1')), await count(ref('v2')), await count(ref('*')), await count(ref('v3'))]).toEqual([1, 2, 3, 0]);
    // a Weave client's refs (weave:///), as its feedback is stored through /feedback/create
    const weave = (v: string): string => ref(v).replace('svc:///', 'weave:///');
    expect([await count(weave('v1')), await count(weave('*'))]).toEqual([1, 3]);
  });
});
