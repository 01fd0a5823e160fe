// The typed $expr builder `q`: its output equals hand-written wire objects, wrong shapes do not compile, the server accepts it.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { Client, q } from '../../../src/index.js';
import { OperationSchema, Query } from '../../../src/schema/query.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

describe('q builds the wire grammar', () => {
  it.each([
    [q.field('op_name'), { $getField: 'op_name' }],
    [q.literal({ a: [1] }), { $literal: { a: [1] } }],
    [q.eq(q.field('op_name'), 'x'), { $eq: [{ $getField: 'op_name' }, { $literal: 'x' }] }],
    [q.gt(q.field('svc_run_step'), 3), { $gt: [{ $getField: 'svc_run_step' }, { $literal: 3 }] }],
    [q.gte(1, q.field('svc_run_step')), { $gte: [{ $literal: 1 }, { $getField: 'svc_run_step' }] }],
    [q.lt(q.field('ended_at'), null), { $lt: [{ $getField: 'ended_at' }, { $literal: null }] }],
    [q.lte(q.field('attributes.ok'), true), { $lte: [{ $getField: 'attributes.ok' }, { $literal: true }] }],
    [q.in(q.field('id'), ['a', 'b']), { $in: [{ $getField: 'id' }, [{ $literal: 'a' }, { $literal: 'b' }]] }],
    [q.not(q.eq(q.field('id'), 'a')), { $not: [{ $eq: [{ $getField: 'id' }, { $literal: 'a' }] }] }],
    [q.contains(q.field('op_name'), 'ag'), { $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'ag' } } }],
    [
      q.contains(q.field('inputs.text'), 'Ä', { caseInsensitive: true }),
      { $contains: { input: { $getField: 'inputs.text' }, substr: { $literal: 'Ä' }, case_insensitive: true } },
    ],
    [
      q.convert(q.field('summary.latency_ms'), 'double'),
      { $convert: { input: { $getField: 'summary.latency_ms' }, to: 'double' } },
    ],
    [q.and(), { $and: [] }],
    [q.or(q.eq(q.field('id'), 'a'), q.eq(q.field('id'), 'b')), { $or: [{ $eq: [{ $getField: 'id' }, { $literal: 'a' }] }, { $eq: [{ $getField: 'id' }, { $literal: 'b' }] }] }],
  ])('%j', (built, wire) => {
    expect(built).toEqual(wire);
  });

  it('builds the example of the issue exactly', () => {
    const built = q.expr(q.and(q.eq(q.field('op_name'), 'x'), q.gt(q.convert(q.field('summary.latency_ms'), 'double'), 100)));
    const wire = {
      $expr: {
        $and: [
          { $eq: [{ $getField: 'op_name' }, { $literal: 'x' }] },
          { $gt: [{ $convert: { input: { $getField: 'summary.latency_ms' }, to: 'double' } }, { $literal: 100 }] },
        ],
      },
    };
    expect(built).toEqual(wire);
    expect(JSON.stringify(built)).toBe(JSON.stringify(wire));
    expect(Query.parse(built)).toEqual(wire);
  });

  it('passes operands through untouched and wraps only scalars', () => {
    const field = q.field('inputs.x');
    const built = q.eq(field, q.literal('y'));
    expect(built.$eq[0]).toBe(field);
    expect(built.$eq[1]).toEqual({ $literal: 'y' });
    expect(OperationSchema.safeParse(built).success).toBe(true);
  });
});

describe('q is typed', () => {
  it('accepts known fields and dotted paths in JSON columns', () => {
    expectTypeOf(q.field).parameter(0).toExtend<string>();
    expectTypeOf<'op_name'>().toExtend<Parameters<typeof q.field>[0]>();
    expectTypeOf<'summary.usage.gpt-4o.total_tokens'>().toExtend<Parameters<typeof q.field>[0]>();
    expectTypeOf<'nope'>().not.toExtend<Parameters<typeof q.field>[0]>();
    expectTypeOf<'op_name.x'>().not.toExtend<Parameters<typeof q.field>[0]>();
    expectTypeOf(q.eq(q.field('id'), 1)).toEqualTypeOf<{ $eq: [import('../../../src/schema/query.js').Operand, import('../../../src/schema/query.js').Operand] }>();
  });

  it('refuses wrong shapes at compile time', () => {
    // These lines are type-checked by `tsc --noEmit`; each @ts-expect-error fails the check if the shape compiled.
    const wrong = (): void => {
      // @ts-expect-error unknown conversion target
      q.convert(q.field('id'), 'float');
      // @ts-expect-error a field is not a boolean operation
      q.and(q.field('id'));
      // @ts-expect-error $eq needs two operands
      q.eq(q.field('id'));
      // @ts-expect-error objects must be wrapped with q.literal
      q.eq(q.field('inputs'), { a: 1 });
      // @ts-expect-error $in takes a list
      q.in(q.field('id'), 'a');
      // @ts-expect-error $expr must be an operation
      q.expr(q.field('id'));
      // @ts-expect-error unknown column
      q.field('nope');
    };
    expect(typeof wrong).toBe('function');
  });
});

describe('q against the server', () => {
  const server = useTestServer();
  let client: Client;
  const project = uniqueProject('qb');
  beforeAll(async () => {
    client = new Client({ baseUrl: server().url, maxRetries: 0 });
    await client.calls.upsertBatch({
      batch: ['answer', 'retrieve', 'answer'].map((op, i) => ({
        mode: 'start' as const,
        req: { start: { project_id: project, id: `c${i}`, op_name: op, started_at: `2024-05-01T10:00:0${i}.000Z`, inputs: { k: i }, attributes: {} } },
      })),
    });
  });
  afterAll(() => client.close());

  it('selects what the expression says', async () => {
    const query = q.expr(q.and(q.eq(q.field('op_name'), 'answer'), q.gt(q.convert(q.field('inputs.k'), 'int'), 0)));
    const records = await client.calls.streamQuery({ project_id: project, query }).toArray();
    expect(records.map((r) => r.id)).toEqual(['c2']);
  });
});
