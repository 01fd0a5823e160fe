// Cases of Weave's own server tests (tests/trace/test_client_trace.py), ported: the data each inserts, the query, the
// answer Weave's trace server gives (its ClickHouse server where its SQLite server differs, see docs/interface-notes.md).
import { describe, expect, it } from 'vitest';
import { uniqueProject } from '../../helpers/calls.js';
import { useTestServer } from '../../helpers/server.js';
import { batch, end, endItem, ids, type Json, post, query, start, startItem } from '../../helpers/server-http.js';

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
