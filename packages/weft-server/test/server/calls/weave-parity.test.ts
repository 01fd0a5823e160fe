// @weft-test: postgres
// Cases of Weave's own server tests (tests/trace/test_client_trace.py), ported: the data each inserts, the query, the
// answer Weave's trace server gives (its ClickHouse server where its SQLite server differs, see docs/interface-notes.md).
import { describe, expect, it } from 'vitest';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, type Json, post, query, start, startItem } from 'weft-test-kit/server-http.js';

const server = useTestServer();
const T0 = Date.parse('2024-05-01T10:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const f = (field: string): Json => ({ $getField: field });
const lit = (v: unknown): Json => ({ $literal: v });
const int = (field: string): Json => ({ $convert: { input: f(field), to: 'int' } });

/** Stores calls `op(in_val, delay) -> in_val` in `project`, one a second, ids c00, c01, ... (`prefix` instead of c). */
async function basicOps(project: string, inVals: unknown[], opName = 'basic_op', prefix = 'c'): Promise<void> {
  await batch(
    server(),
    inVals.flatMap((inVal, i) => {
      const id = `${prefix}${String(i).padStart(2, '0')}`;
      return [
        startItem(start({ project_id: project, id, op_name: opName, started_at: at(i), inputs: { in_val: inVal, delay: i / 10 } })),
        endItem(end(id, { project_id: project, ended_at: at(i + 0.5), output: inVal })),
      ];
    }),
  );
}

describe('test_trace_call_filter', () => {
  const project = uniqueProject('weave-filter');
  const inVals: unknown[] = Array.from({ length: 10 }, (_, i) => ({ prim: i, list: [i], dict: { inner: i }, str: `str_${i}` }));
  inVals.push({ prim: 'Different Type', list: 'Different Type', dict: 'Different Type', str: false }, 'simple_primitive', 42);
  const prim = int('inputs.in_val.prim');

  // [count Weave answers, $expr] in the order of the Weave test
  const cases: [number, Json][] = [
    [13, { $eq: [lit(1), lit(1)] }],
    [0, { $eq: [lit(1), lit(2)] }],
    [1, { $eq: [lit(5), prim] }],
    [1, { $eq: [lit('simple_primitive'), f('inputs.in_val')] }],
    [1, { $eq: [lit('simple_primitive'), f('output')] }], // issue 26 point 1
    [4, { $gt: [prim, lit(5)] }],
    [5, { $gte: [prim, lit(5)] }],
    [6, { $not: [{ $gt: [prim, lit(5)] }] }], // point 2: Weave's SQLite server answers 7
    [5, { $not: [{ $gte: [prim, lit(5)] }] }], // point 2: Weave's SQLite server answers 6
    [13, { $contains: { input: f('inputs.in_val.str'), substr: lit('') } }], // point 12: Weave's SQLite server answers 11
    [10, { $contains: { input: f('inputs.in_val.str'), substr: lit('str') } }],
    [0, { $contains: { input: f('inputs.in_val.str'), substr: lit('STR') } }],
    [10, { $contains: { input: f('inputs.in_val.str'), substr: lit('STR'), case_insensitive: true } }],
    [3, { $and: [{ $not: [{ $gt: [prim, lit(7)] }] }, { $gte: [prim, lit(5)] }] }],
    [5, { $or: [{ $not: [{ $gt: [prim, lit(3)] }] }, { $gte: [prim, lit(9)] }] }], // point 2: Weave's SQLite server answers 6
    [0, { $eq: [lit(5), int('inputs.in_val.str')] }],
    [1, { $eq: [lit('5'), { $convert: { input: f('inputs.in_val.prim'), to: 'string' } }] }],
    [4, { $gt: [int('inputs.in_val.list.0'), lit(5)] }],
    [4, { $gt: [int('inputs.in_val.dict.inner'), lit(5)] }],
    [4, { $gt: [int('output.prim'), lit(5)] }],
    [4, { $gt: [int('output.list.0'), lit(5)] }],
    [4, { $gt: [int('output.dict.inner'), lit(5)] }],
  ];

  it.each(cases)('%i calls match %j', async (count, $expr) => {
    if (!(await query(server(), { project_id: project, limit: 1 })).length) await basicOps(project, inVals);
    expect(await query(server(), { project_id: project, query: { $expr } })).toHaveLength(count);
  });
});

describe('test_trace_call_sort', () => {
  const project = uniqueProject('weave-sort');
  const fields = ['started_at', 'inputs.in_val.prim', 'inputs.in_val.list.0', 'inputs.in_val.dict.inner', 'output.prim', 'output.list.0', 'output.dict.inner'];

  it.each(fields)('sorts by %s desc', async (field) => {
    if (!(await query(server(), { project_id: project, limit: 1 })).length) {
      await basicOps(project, [0, 1, 2].map((i) => ({ prim: i, list: [i], dict: { inner: i } })));
    }
    const records = await query(server(), { project_id: project, sort_by: [{ field, order: 'desc' }] });
    expect(records.map((r) => (r['inputs'] as { in_val: { prim: number } }).in_val.prim)).toEqual([2, 1, 0]);
  });
});

describe('test_trace_call_sort_with_mixed_types (issue 26 point 4)', () => {
  const project = uniqueProject('weave-mixed');
  it.each([
    ['desc', [100, 2, 'b', 'a', null, null]],
    ['asc', [2, 100, 'a', 'b', null, null]],
  ])('%s: numbers, then strings, then nulls', async (order, seq) => {
    if (!(await query(server(), { project_id: project, limit: 1 })).length) {
      await basicOps(project, [{ prim: null }, { not_prim: 1 }, { prim: 100 }, { prim: 2 }, { prim: 'b' }, { prim: 'a' }]);
    }
    const records = await query(server(), { project_id: project, sort_by: [{ field: 'inputs.in_val.prim', order }] });
    expect(records.map((r) => (r['inputs'] as { in_val: { prim?: unknown } }).in_val.prim ?? null)).toEqual(seq);
  });
});

describe('test_calls_complete_with_query_conditions (calls query builder; issue 26 point 3)', () => {
  // Weave compiles {$gt: [started_at, 1749485184.848]} to `started_at > {Float64}`: the number is epoch seconds
  it('compares started_at with a number as epoch seconds, to the millisecond', async () => {
    const project = uniqueProject('weave-epoch');
    await batch(server(), [
      startItem(start({ project_id: project, id: 'before', started_at: '2025-06-09T16:06:24.848Z' })),
      startItem(start({ project_id: project, id: 'after', started_at: '2025-06-09T16:06:24.849Z' })),
    ]);
    const $expr = { $gt: [f('started_at'), lit(1749485184.848)] };
    expect(ids(await query(server(), { project_id: project, query: { $expr } }))).toEqual(['after']);
  });
});

describe('issue 26, cases of its own (no Weave test covers them)', () => {
  const project = uniqueProject('weave-own');
  const seed = async (): Promise<void> => {
    if ((await query(server(), { project_id: project, limit: 1 })).length) return;
    await basicOps(project, [{ n: '12abc' }, { n: '7' }, { n: 3 }, { n: null }, {}]);
  };

  it('point 2: $convert to double of text that is no number is null, numeric text its number', async () => {
    await seed();
    const dbl = { $convert: { input: f('inputs.in_val.n'), to: 'double' } };
    expect(ids(await query(server(), { project_id: project, query: { $expr: { $eq: [dbl, lit(null)] } } }))).toEqual(['c00', 'c03', 'c04']);
    expect(ids(await query(server(), { project_id: project, query: { $expr: { $lt: [dbl, lit(5)] } } }))).toEqual(['c02']);
  });

  it('point 3: a number compared with started_at / ended_at is epoch seconds', async () => {
    await seed();
    const epoch = T0 / 1000;
    const q = async ($expr: Json): Promise<unknown[]> => ids(await query(server(), { project_id: project, query: { $expr } }));
    expect(await q({ $gt: [f('started_at'), lit(99_999_999_999)] })).toEqual([]);
    expect(await q({ $gte: [f('started_at'), lit(epoch + 3)] })).toEqual(['c03', 'c04']);
    expect(await q({ $lt: [f('ended_at'), lit(epoch + 1.5)] })).toEqual(['c00']);
    expect(await q({ $eq: [f('ended_at'), lit(epoch + 1.5)] })).toEqual(['c01']);
    expect(await q({ $in: [f('started_at'), [lit(epoch), lit(epoch + 4)]] })).toEqual(['c00', 'c04']);
    expect(await q({ $gt: [f('started_at'), lit(at(3))] })).toEqual(['c04']); // text still compares as text
  });

  it('point 4: nulls last in both directions on a nullable column', async () => {
    const running = uniqueProject('weave-nulls');
    await basicOps(running, [1, 2]);
    await batch(server(), [startItem(start({ project_id: running, id: 'c99', op_name: 'basic_op', started_at: at(9) }))]);
    for (const order of ['asc', 'desc']) {
      const records = await query(server(), { project_id: running, sort_by: [{ field: 'ended_at', order }] });
      expect(records.at(-1)?.['id']).toBe('c99');
    }
  });
});

describe('test_trace_call_query_filter_op_version_refs (issue 26 point 8)', () => {
  const project = uniqueProject('weave-ops');
  const ref = (name: string, digest: string): string => `weave:///${project}/op/${name}:${digest}`;
  const adderV0 = ref('adder', 'v0digest');
  const adder = ref('adder', 'v1digest');
  const subtractor = ref('subtractor', 'sdigest');
  // simple_line_call_bootstrap: adder_v0 1 call, adder 2 + 5 (under liner), subtractor 3, multiplier 4 + 5, liner 5
  const calls: [string, number][] = [[adderV0, 1], [adder, 7], [subtractor, 3], [ref('multiplier', 'mdigest'), 9], [ref('liner', 'ldigest'), 5]];
  const seed = async (): Promise<void> => {
    if ((await query(server(), { project_id: project, limit: 1 })).length) return;
    let n = 0;
    const one = (op_name: string): Json => startItem(start({ project_id: project, id: `c${String(n).padStart(2, '0')}`, op_name, started_at: at(n++) }));
    await batch(server(), calls.flatMap(([op_name, count]) => Array.from({ length: count }, () => one(op_name))));
  };
  const wildcard = `weave:///${project}/op/adder:*`;

  it.each([
    [null, 25],
    [[], 25],
    [[adder], 7],
    [[adderV0], 1],
    [[adder, subtractor], 10],
    [[wildcard], 8],
    [[wildcard, subtractor], 11],
  ])('op_names %j: %i calls', async (op_names, count) => {
    await seed();
    expect(await query(server(), { project_id: project, filter: { op_names } })).toHaveLength(count);
  });

  it('weft: <ref>:* matches versions of that op only, not of an op whose name extends it', async () => {
    await seed();
    await batch(server(), [startItem(start({ project_id: project, id: 'x1', op_name: ref('adder_two', 'adigest'), started_at: at(30) }))]);
    expect(await query(server(), { project_id: project, filter: { op_names: [wildcard] } })).toHaveLength(8);
    expect(await query(server(), { project_id: project, filter: { op_names: [`weave:///${project}/op/adder_two:*`] } })).toHaveLength(1);
  });
});

describe('perform_scorer_tests of tests/trace/test_scorer_query (issue 26 point 5: feedback fields)', () => {
  const project = uniqueProject('weave-scored');
  const opRef = (name: string, digest: string): string => `svc:///${project}/op/${name}:${digest}`;
  const [s0v0, s0v1, s1v0] = [opRef('s0', 'v0'), opRef('s0', 'v1'), opRef('s1', 'v0')];
  const output = (name: string): string => `feedback.[wandb.runnable.${name}].payload.output`;
  const runnableRef = (name: string): string => `feedback.[wandb.runnable.${name}].runnable_ref`;
  const exists = (field: string): Json => ({ $not: [{ $eq: [f(field), lit('')] }] });
  const eq = (field: string, value: string): Json => ({ $eq: [f(field), lit(value)] });
  const seed = async (): Promise<void> => {
    if ((await query(server(), { project_id: project, limit: 1 })).length) return;
    // predict(0..4) then one scorer call per score (5 more calls, none scored)
    await basicOps(project, [0, 1, 2, 3, 4]);
    await basicOps(project, [5, 6, 7, 8, 9].map(() => null), 'score', 's');
    const scores: [string, string, string][] = [['c01', 's0', s0v0], ['c02', 's1', s1v0], ['c03', 's0', s0v0], ['c03', 's1', s1v0], ['c04', 's0', s0v1]];
    const res = await post(server(), '/feedback/batch/create', {
      // Weave requires the scorer's call (call_ref) with a runnable op
      batch: scores.map(([id, name, runnable_ref], i) => ({
        project_id: project, svc_ref: `svc:///${project}/call/${id}`, feedback_type: `wandb.runnable.${name}`, runnable_ref, call_ref: `svc:///${project}/call/s${i}`, payload: { output: id !== 'c03' },
      })),
    });
    expect(res.status).toBe(200);
  };

  it.each([
    ['1. scored by s0:*', exists(output('s0')), ['c01', 'c03', 'c04']],
    ['2. scored by s0:v0', eq(runnableRef('s0'), s0v0), ['c01', 'c03']],
    ['3. scored by s0:v1', eq(runnableRef('s0'), s0v1), ['c04']],
    ['4. scored by s1:*', exists(output('s1')), ['c02', 'c03']],
    ['5. scored by s1:v0', eq(runnableRef('s1'), s1v0), ['c02', 'c03']],
  ])('%s', async (_name, $expr, expected) => {
    await seed();
    expect(ids(await query(server(), { project_id: project, query: { $expr } }))).toEqual(expected);
  });

  it('weft: sorts by a feedback payload path, calls without it last; [*] reads any type', async () => {
    await seed();
    const sorted = await query(server(), { project_id: project, filter: { op_names: ['basic_op'] }, sort_by: [{ field: output('s1'), order: 'desc' }] });
    expect(ids(sorted)).toEqual(['c02', 'c03', 'c00', 'c01', 'c04']); // true (1) before false (0), then the unscored by id
    const any = { $eq: [f('feedback.[*].payload.output'), lit(false)] };
    expect(ids(await query(server(), { project_id: project, query: { $expr: any } }))).toEqual(['c03']);
  });

  it('answers 422 for a malformed feedback field', async () => {
    const res = await post(server(), '/calls/stream_query', { project_id: project, query: { $expr: eq('feedback.[x].nope', 'a') } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(['body', 'query', '$expr', '$eq', '0', '$getField']);
  });
});

/** Runs `fn` once, however many tests await it (the seed of a describe). */
const once = (fn: () => Promise<void>): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
};

describe('test_call_query_stream_columns and the summary.weave tests (issue 26 point 7)', () => {
  const project = uniqueProject('weave-columns');
  const calc = `weave:///${project}/op/calculate:cdigest`;
  const seed = once(async () => {
    // calculate(a, b) -> {result: {"a + b": a + b}, "not result": 123}, twice
    await batch(server(), [0, 1].flatMap((i) => [
      startItem(start({ project_id: project, id: `c${i}`, op_name: calc, started_at: at(i), inputs: { a: i, b: i * i } })),
      endItem(end(`c${i}`, { project_id: project, ended_at: at(i + 0.25), output: { result: { 'a + b': i + i * i }, 'not result': 123 } })),
    ]));
  });
  const cols = async (columns: string[]): Promise<Json[]> => (await seed(), query(server(), { project_id: project, columns }));

  it('columns [id, inputs]: inputs, and no output, ended_at or attributes', async () => {
    const [c0] = await cols(['id', 'inputs']);
    expect(c0!['inputs']).toEqual({ a: 0, b: 0 });
    for (const key of ['output', 'ended_at', 'attributes']) expect(c0![key]).toBeUndefined(); // Weave: null, null, {}
  });

  it('columns [id, inputs, output.result]: the whole output', async () => {
    const [c0] = await cols(['id', 'inputs', 'output.result']);
    expect(c0!['output']).toEqual({ result: { 'a + b': 0 }, 'not result': 123 });
  });

  it('columns [id, summary]: summary.weave derived, started_at, ended_at and op_name set, no big fields', async () => {
    const [c0] = await cols(['id', 'summary']);
    expect((c0!['summary'] as Json)['weave']).toEqual({ status: 'success', latency_ms: 250, trace_name: 'calculate' });
    expect([c0!['started_at'], c0!['ended_at'], c0!['op_name']]).toEqual([at(0), at(0.25), calc]);
    for (const key of ['attributes', 'inputs', 'output']) expect(c0![key]).toBeUndefined();
  });

  it('test_calls_query_multiple_dupe_select_columns: overlapping paths answer the whole column once', async () => {
    const [, c1] = await cols(['output', 'output.result', 'output.result.a + b']);
    expect(c1!['output']).toEqual({ result: { 'a + b': 2 }, 'not result': 123 });
  });

  it('test_call_query_stream_trace_name_column_with_costs: columns [id, summary.weave.trace_name]', async () => {
    const [c0] = await cols(['id', 'summary.weave.trace_name']);
    expect(((c0!['summary'] as Json)['weave'] as Json)['trace_name']).toBe('calculate');
  });

  it('test_trace_server_call_start_and_end: a running call has no latency_ms; a display name is the trace name', async () => {
    await batch(server(), [startItem(start({ project_id: project, id: 'r0', op_name: 'test_name', started_at: at(5), display_name: 'Named' }))]);
    const [r0] = await query(server(), { project_id: project, filter: { call_ids: ['r0'] } });
    expect((r0!['summary'] as Json)['weave']).toEqual({ status: 'running', trace_name: 'Named' });
  });
});

describe('test_calls_query_with_descendant_error and test_calls_query_sort_by_trace_name_with_costs (point 7)', () => {
  const project = uniqueProject('weave-status');
  const op = (name: string): string => `weave:///${project}/op/${name}:d`;
  const status = (r: Json): unknown => ((r['summary'] as Json)['weave'] as Json)['status'];
  const seed = once(async () => {
    const boom = { type: 'TestException', message: 'Error' };
    // parent_op(0): child raises, parent catches; parent_op(1) raises; parent_op(2): both succeed
    await batch(server(), [
      startItem(start({ project_id: project, id: 'p0', op_name: op('parent_op'), started_at: at(0), inputs: { val: 0 } })),
      startItem(start({ project_id: project, id: 'k0', op_name: op('child_op'), started_at: at(1), parent_id: 'p0', inputs: { val: 0 } })),
      endItem(end('k0', { project_id: project, ended_at: at(1.5), exception: boom, summary: { status_counts: { success: 0, error: 1 } } })),
      endItem(end('p0', { project_id: project, ended_at: at(2), output: 0, summary: { status_counts: { success: 1, error: 1 } } })),
      startItem(start({ project_id: project, id: 'p1', op_name: op('parent_op'), started_at: at(3), inputs: { val: 1 } })),
      endItem(end('p1', { project_id: project, ended_at: at(3.5), exception: boom, summary: { status_counts: { success: 0, error: 1 } } })),
      startItem(start({ project_id: project, id: 'p2', op_name: op('parent_op'), started_at: at(4), inputs: { val: 2 } })),
      startItem(start({ project_id: project, id: 'k2', op_name: op('child_op'), started_at: at(5), parent_id: 'p2', inputs: { val: 2 } })),
      endItem(end('k2', { project_id: project, ended_at: at(5.5), output: 2, summary: { status_counts: { success: 1, error: 0 } } })),
      endItem(end('p2', { project_id: project, ended_at: at(6), output: 2, summary: { status_counts: { success: 2, error: 0 } } })),
    ]);
  });

  it('derives each status, in started_at order', async () => {
    await seed();
    const calls = await query(server(), { project_id: project, sort_by: [{ field: 'started_at', direction: 'asc' }] });
    expect(calls.map(status)).toEqual(['descendant_error', 'error', 'error', 'success', 'success']);
  });

  it.each([
    ['asc', ['descendant_error', 'error', 'error', 'success', 'success']],
    ['desc', ['success', 'success', 'error', 'error', 'descendant_error']],
  ])('sorts by summary.weave.status %s', async (direction, expected) => {
    await seed();
    const calls = await query(server(), { project_id: project, sort_by: [{ field: 'summary.weave.status', direction }] });
    expect(calls.map(status)).toEqual(expected);
  });

  it.each([['descendant_error', 1], ['error', 2], ['success', 2]])('filters summary.weave.status = %s: %i calls', async (value, count) => {
    await seed();
    expect(await query(server(), { project_id: project, query: { $expr: { $eq: [f('summary.weave.status'), lit(value)] } } })).toHaveLength(count);
  });

  it.each([
    ['asc', ['k0', 'k2', 'p0', 'p1', 'p2']],
    ['desc', ['p0', 'p1', 'p2', 'k0', 'k2']],
  ])('sorts by summary.weave.trace_name %s (the op ref\'s short name), id breaking ties', async (direction, expected) => {
    await seed();
    expect(ids(await query(server(), { project_id: project, sort_by: [{ field: 'summary.weave.trace_name', direction }], columns: ['id'], include_costs: true }))).toEqual(expected);
  });

  it('weft: filters on summary.weave.latency_ms and summary.weave.trace_name', async () => {
    await seed();
    const q = async ($expr: Json): Promise<unknown[]> => ids(await query(server(), { project_id: project, query: { $expr } }));
    expect(await q({ $gte: [f('summary.weave.latency_ms'), lit(1000)] })).toEqual(['p0', 'p2']);
    expect(await q({ $eq: [f('summary.weave.trace_name'), lit('child_op')] })).toEqual(['k0', 'k2']);
  });
});

/** Stores `val` through `/obj/create` and answers its ref (`scheme`:///<project>/object/<name>:<digest>). */
async function publish(project: string, name: string, val: unknown, scheme = 'weave'): Promise<string> {
  const res = await post(server(), '/obj/create', { obj: { project_id: project, object_id: name, val } });
  expect(res.status).toBe(200);
  return `${scheme}:///${project}/object/${name}:${((await res.json()) as { digest: string }).digest}`;
}

/** One call of `project` with `inputs` and `output`, id `id`. */
const oneCall = (project: string, id: string, inputs: Json, output: unknown, s = 0): Json[] => [
  startItem(start({ project_id: project, id, op_name: 'op', started_at: at(s), inputs })),
  endItem(end(id, { project_id: project, ended_at: at(s + 0.5), output })),
];

describe('test_calls_stream_column_expansion (issue 26 point 6)', () => {
  const project = uniqueProject('weave-expand');
  const refs = { ref: '', simple: '', nested: '' };
  const seed = once(async () => {
    refs.ref = await publish(project, 'ObjectRef', { id: '123' });
    refs.simple = await publish(project, 'SimpleObject', { a: refs.ref });
    // publishing NestedObject(b=simple_obj) stores b as the ref of the published SimpleObject
    refs.nested = await publish(project, 'NestedObject', { b: refs.simple });
    await batch(server(), oneCall(project, 'c0', { nested_obj: refs.nested }, refs.nested));
  });
  const output = async (body: Json): Promise<unknown> => (await seed(), (await query(server(), { project_id: project, ...body }))[0]!['output']);

  it('output is a ref', async () => {
    expect(await output({})).toBe(refs.nested);
  });

  it('output is dereffed', async () => {
    expect(((await output({ columns: ['output'], expand_columns: ['output'] })) as Json)['b']).toBe(refs.simple);
  });

  it('expand 2 refs: {b: {a: ref}}', async () => {
    const out = (await output({ columns: ['output.b'], expand_columns: ['output', 'output.b'] })) as { b: Json };
    expect(out.b['a']).toBe(refs.ref);
  });

  it('expand 3 refs: {b: {a: {id: "123"}}}', async () => {
    const out = (await output({ columns: ['output.b.a'], expand_columns: ['output', 'output.b', 'output.b.a'] })) as { b: { a: Json } };
    expect(out.b.a['id']).toBe('123');
    expect(out).toEqual({ b: { a: { id: '123', _ref: refs.ref }, _ref: refs.simple }, _ref: refs.nested });
  });

  it('incomplete expansion columns: output unexpanded', async () => {
    expect(await output({ columns: ['output'], expand_columns: ['output.b'] })).toBe(refs.nested);
  });

  it('non-existent column: output unexpanded', async () => {
    expect(await output({ columns: ['output.b.a'], expand_columns: ['output.b', 'output.zzzz'] })).toBe(refs.nested);
  });

  it('test_calls_stream_column_expansion_dynamic_batch_size: values that are no refs stay', async () => {
    const other = uniqueProject('weave-expand-ints');
    await batch(server(), [0, 1, 2, 3, 4].flatMap((i) => oneCall(other, `c${i}`, { x: i }, i, i)));
    const calls = await query(server(), { project_id: other, columns: ['output'], expand_columns: ['output'] });
    expect(calls.map((c) => c['output'])).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('test_calls_hydrated and test_dedupe_ref_in_calls_stream (point 6)', () => {
  const project = uniqueProject('weave-hydrated');
  const refs = { nested: '', obj: '', dedupeNested: '', dedupe: '' };
  const seed = once(async () => {
    refs.nested = await publish(project, 'nested', { hi: { there: { foo: 'bar' } } });
    refs.obj = await publish(project, 'my_obj', { woahhhh: refs.nested });
    refs.dedupeNested = await publish(project, 'dedupe_nested', { nested: 123 });
    const five = Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`my_dataset${i}`, refs.dedupeNested]));
    refs.dedupe = await publish(project, 'dedupe', { ...five, ref_list: { 1: refs.dedupeNested, 2: refs.dedupeNested, 3: refs.dedupeNested } });
    await batch(server(), [
      ...[0, 1, 2].flatMap((i) => oneCall(project, `n${i}`, { input_ref: refs.nested }, refs.obj, i)),
      ...oneCall(project, 'log', {}, refs.dedupe, 5),
    ]);
  });

  it('nest(): inputs.input_ref and output.woahhhh expanded in every call', async () => {
    await seed();
    const calls = await query(server(), {
      project_id: project, filter: { call_ids: ['n0', 'n1', 'n2'] }, columns: ['inputs', 'output', 'output.woahhhh'],
      expand_columns: ['inputs', 'inputs.input_ref', 'output', 'output.woahhhh'],
    });
    expect(calls).toHaveLength(3);
    for (const c of calls) {
      expect(((c['output'] as Json)['woahhhh'] as { hi: { there: Json } }).hi.there['foo']).toBe('bar');
      expect(((c['inputs'] as Json)['input_ref'] as { hi: { there: Json } }).hi.there['foo']).toBe('bar');
    }
  });

  it('dedupe: the expanded object names its ref; the refs inside it stay', async () => {
    await seed();
    const [log] = await query(server(), { project_id: project, filter: { call_ids: ['log'] }, columns: ['output'], expand_columns: ['output'] });
    const r = refs.dedupeNested;
    expect(log!['output']).toEqual({
      _ref: refs.dedupe, my_dataset1: r, my_dataset2: r, my_dataset3: r, my_dataset4: r, my_dataset5: r, ref_list: { 1: r, 2: r, 3: r },
    });
  });

  it('dedupe: every column expanded, the same ref each time', async () => {
    await seed();
    const cols = ['output', ...[1, 2, 3, 4, 5].map((i) => `output.my_dataset${i}`), 'output.ref_list', 'output.ref_list.1', 'output.ref_list.2', 'output.ref_list.3'];
    const [log] = await query(server(), { project_id: project, filter: { call_ids: ['log'] }, columns: cols, expand_columns: cols });
    const withRef = { nested: 123, _ref: refs.dedupeNested };
    const out = log!['output'] as Json;
    for (const i of [1, 2, 3, 4, 5]) expect(out[`my_dataset${i}`]).toEqual(withRef);
    expect(out['ref_list']).toEqual({ 1: withRef, 2: withRef, 3: withRef });
  });

  it('weft: a dataset row ref (.../attr/rows/id/<row digest>) reads the row through the table; svc:/// refs too', async () => {
    await seed();
    const table = await post(server(), '/table/create', { project_id: project, rows: [{ q: 'x' }, { q: 'y' }] });
    const { digest, row_digests } = (await table.json()) as { digest: string; row_digests: string[] };
    const dataset = await publish(project, 'Dataset', { _type: 'Dataset', rows: `weave:///${project}/table/${digest}` }, 'svc');
    const rowRef = `${dataset}/attr/rows/id/${row_digests[1]}`;
    const missing = `weave:///${project}/object/never:stored`;
    await batch(server(), oneCall(project, 'row', { example: rowRef, lost: missing, deep: `${dataset}/attr/nope` }, null, 9));
    const [row] = await query(server(), { project_id: project, filter: { call_ids: ['row'] }, expand_columns: ['inputs.example', 'inputs.lost', 'inputs.deep'] });
    expect(row!['inputs']).toEqual({ example: { q: 'y', _ref: rowRef }, lost: missing, deep: null });
  });
});

describe('test_trace_call_wb_run_step_query and test_trace_call_query_filter_wb_run_ids (issue 26 point 10)', () => {
  const project = uniqueProject('weave-runs');
  const full = (run: string): string => `${project}/${run}`;
  const seed = once(async () => {
    // steps 0..5 at the starts, the end of each call one step later; two runs and calls of no run
    const runs = ['test-run-1', 'test-run-1', 'test-run-2', 'test-run-2', 'test-run-2', null];
    await batch(server(), runs.flatMap((run, i) => [
      startItem(start({ project_id: project, id: `c${i}`, started_at: at(i), svc_run_step: i, ...(run ? { svc_run_id: full(run) } : {}) })),
      endItem(end(`c${i}`, { project_id: project, ended_at: at(i + 0.5), svc_run_step_end: i + 1 })),
    ]));
  });
  const q = async (body: Json): Promise<Json[]> => (await seed(), query(server(), { project_id: project, ...body }));

  it('stores the end step and reads it back beside the start step', async () => {
    const calls = await q({});
    expect(calls.map((c) => [c['svc_run_step'], c['svc_run_step_end']])).toEqual([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6]]);
  });

  it('filters and sorts on svc_run_step and svc_run_step_end', async () => {
    expect(await q({ query: { $expr: { $eq: [f('svc_run_step'), lit(0)] } } })).toHaveLength(1);
    expect(await q({ query: { $expr: { $gte: [f('svc_run_step_end'), lit(3)] } } })).toHaveLength(4);
    expect((await q({ sort_by: [{ field: 'svc_run_step_end', direction: 'desc' }] })).map((c) => c['svc_run_step_end'])).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it.each([
    [null, 6],
    [[], 6],
    [['test-run-1'], 2],
    [['RUN_FULL_1'], 2],
    [['RUN_FULL_1', 'RUN_FULL_2'], 5],
    [['test-run-1', 'RUN_FULL_2'], 5],
    [['NOT_A_RUN'], 0],
  ])('svc_run_ids %j (bare ids qualified with the project): %i calls', async (runIds, count) => {
    const svc_run_ids = runIds?.map((r) => (r.startsWith('RUN_FULL_') ? full(`test-run-${r.slice(-1)}`) : r));
    expect(await q({ filter: { svc_run_ids } })).toHaveLength(count);
  });
});
