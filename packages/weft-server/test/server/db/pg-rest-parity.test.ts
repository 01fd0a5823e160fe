// Same answers on both stores, byte for byte: one SQLite server and one PostgreSQL server get the same requests
// (feedback in DST zones with percentiles and sums, tables with Unicode and mixed-type sorts, a large table, trajectory
// metrics, object versions) and must answer the same JSON text. Runs in the `postgres` vitest project only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../../../../examples/prng.js';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';
import { storeParts } from '../../../src/server/server-store.js';

/** A server whose clock reads the queued instants first, then a fixed one. */
interface Clocked {
  server: RunningServer;
  queue: number[];
}

const FIXED = Date.parse('2026-06-01T00:00:00.000Z');
let sqlite: Clocked;
let postgres: Clocked;

async function clocked(opts: { dbPath?: string }): Promise<Clocked> {
  const queue: number[] = [];
  return { server: await startTestServer({ ...opts, now: () => new Date(queue.shift() ?? FIXED) }), queue };
}

beforeAll(async () => {
  sqlite = await clocked({ dbPath: ':memory:' });
  postgres = await clocked({});
  expect(sqlite.server.store.engine).not.toBe(postgres.server.store.engine);
}, 60_000);

afterAll(async () => {
  console.log(`answer time: sqlite ${elapsed.sqlite.toFixed(0)} ms, postgres ${elapsed.postgres.toFixed(0)} ms`);
  await sqlite?.server.close();
  await postgres?.server.close();
});

/** Milliseconds spent answering, per store. */
const elapsed = { sqlite: 0, postgres: 0 };

/** Sends the same request to both servers; both must answer 200 with the same body text, which is returned parsed. */
async function both(path: string, body: unknown, clock: number[] = []): Promise<unknown> {
  const texts: string[] = [];
  for (const s of [sqlite, postgres]) {
    s.queue.push(...clock);
    const t0 = performance.now();
    const res = await post(s.server, path, body);
    const text = await res.text();
    elapsed[s.server.store.engine] += performance.now() - t0;
    expect(res.status, `${s.server.store.engine} ${path}: ${text.slice(0, 300)}`).toBe(200);
    texts.push(text);
  }
  expect(texts[1], path).toBe(texts[0]);
  return JSON.parse(texts[0]!) as unknown;
}

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
/** A UUID-shaped feedback id, the same on both servers. */
const fbId = (i: number): string => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const KEYS = ['score', 'ok', 'label', 'naïve ключ', '😀'];

/** A random JSON value of many kinds: integers, fractions, large and tiny numbers, booleans, strings (some with U+0000), null. */
function value(random: () => number): unknown {
  const k = random();
  if (k < 0.3) return Math.round(random() * 1e6) / 1e3 - 200;
  if (k < 0.4) return Math.floor(random() * 1000) - 500;
  if (k < 0.45) return (random() - 0.5) * 1e300;
  if (k < 0.5) return random() * 1e-300;
  if (k < 0.65) return random() < 0.5;
  if (k < 0.75) return ['a', 'É', 'x\u0000y', '中文', ''][Math.floor(random() * 5)];
  if (k < 0.8) return null;
  if (k < 0.9) return [random(), { deep: random() * 10 }];
  return undefined;
}

describe('feedback', () => {
  const project = 'parity/feedback';
  // Two DST changes of 2026 in New York and London (March), Lord Howe (April, 30 min) and New York again (November).
  const SPANS = [['2026-03-06T00:00:00Z', '2026-04-08T00:00:00Z'], ['2026-10-30T00:00:00Z', '2026-11-03T00:00:00Z']] as const;

  beforeAll(async () => {
    const random = prng(16);
    const batch: unknown[] = [];
    const clock: number[] = [];
    for (let i = 0; i < 1500; i++) {
      const payload: Record<string, unknown> = {};
      for (const key of KEYS) {
        const v = value(random);
        if (v !== undefined) payload[key] = v;
      }
      payload['nested'] = { list: [value(random) ?? 1, value(random) ?? 2] };
      const [a, b] = SPANS[i % 2]!.map(Date.parse) as [number, number];
      // Some rows share an instant, so the order of equal created_at (insertion) matters to sums.
      clock.push(i % 7 === 0 && clock.length > 0 ? clock[clock.length - 1]! : a + Math.floor(random() * (b - a)));
      batch.push({
        project_id: project, id: fbId(i), svc_ref: `svc:///${project}/call/c${i % 40}`, feedback_type: i % 3 ? 'score' : 'note',
        payload, trigger_ref: `svc:///${project}/object/${i % 2 ? 'judge' : 'other'}:v${i % 5}`,
      });
    }
    for (let at = 0; at < batch.length; at += 500) await both('/feedback/batch/create', { batch: batch.slice(at, at + 500) }, clock.slice(at, at + 500));
  });

  const metrics = [
    { json_path: 'score', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: [0, 1, 10, 33.3, 50, 90, 99.9, 100] },
    { json_path: 'naïve ключ', aggregations: ['sum', 'avg', 'min', 'max', 'count'] },
    { json_path: 'ok', value_type: 'boolean', aggregations: ['count', 'count_true', 'count_false', 'avg', 'sum'], percentiles: [50, 75] },
    { json_path: 'label', value_type: 'categorical' },
    { json_path: 'nested.list[1]', aggregations: ['sum', 'max'] },
    { json_path: 'nested.list[0].deep', percentiles: [50] },
    { json_path: '😀', aggregations: ['sum', 'avg'] },
  ];

  it('answers the same stats in DST zones at every granularity, with filters', { timeout: 300_000 }, async () => {
    let checked = 0;
    for (const [start, end] of SPANS) {
      for (const timezone of ZONES) {
        // 5-minute buckets over the 33-day span (9,504 buckets x 7 metrics, 5 zones) cost most of this file's time and
        // add nothing the 4-day span's 5-minute buckets and the 33-day span's 90-minute ones (unaligned to DST) don't
        const long = Date.parse(end) - Date.parse(start) > 7 * 86_400_000;
        for (const granularity of [...(long ? [] : [300]), 3600, 5400, 21600, 86400, 7 * 86400, undefined]) {
          await both('/feedback/stats', { project_id: project, start, end, timezone, granularity, metrics });
          checked++;
        }
      }
    }
    const [start, end] = SPANS[0]!;
    await both('/feedback/stats', { project_id: project, start, end, timezone: 'America/New_York', feedback_type: 'note', metrics });
    await both('/feedback/stats', { project_id: project, start, end, timezone: 'Europe/London', trigger_ref: `svc:///${project}/object/judge:*`, metrics });
    await both('/feedback/stats', { project_id: project, start, end, timezone: 'UTC', trigger_ref: `svc:///${project}/object/other:v2`, metrics });
    const res = (await both('/feedback/stats', { project_id: project, start, end, timezone: 'UTC', metrics })) as { window_stats: Record<string, Record<string, number>> };
    expect(res.window_stats['score']!['count']).toBeGreaterThan(200);
    expect(checked).toBe(65);
  });

  it('answers the same at the limits: 64 metrics with 16 percentiles each, 10,000 buckets', async () => {
    const many = Array.from({ length: 64 }, (_, i) => ({
      json_path: i === 0 ? 'score' : `nested.list[${i - 1}]`, aggregations: ['sum', 'avg', 'min', 'max', 'count'],
      percentiles: Array.from({ length: 16 }, (_, k) => (k * 100) / 15),
    }));
    await both('/feedback/stats', { project_id: project, start: SPANS[0]![0], end: SPANS[0]![1], timezone: 'Europe/London', metrics: many });
    await both('/feedback/stats', { project_id: project, start: SPANS[0]![0], end: SPANS[0]![1], timezone: 'Asia/Kathmandu', granularity: 300, metrics: metrics.slice(0, 2) });
  }, 120_000);

  it('answers the same records for include_feedback lookups and the same idempotent re-creates', async () => {
    const again = await both('/feedback/batch/create', { batch: [{ project_id: project, id: fbId(3), svc_ref: `svc:///${project}/call/c3`, feedback_type: 'x', payload: { z: 1, a: 'x\u0000' } }] }, [FIXED]);
    expect((again as { res: { payload: unknown }[] }).res[0]!.payload).not.toEqual({ z: 1, a: 'x\u0000' });
    const lookups = await Promise.all([sqlite, postgres].map(async (s) => JSON.stringify([...(await storeParts(s.server.store).feedback.forCalls(project, ['c1', 'c2', 'c39', 'none']))])));
    expect(lookups[1]).toBe(lookups[0]);
  });
});

describe('tables', () => {
  const rowsOf = (random: () => number, n: number): unknown[] =>
    Array.from({ length: n }, (_, i) => {
      const s = ['apple', 'Apple', 'äpple', 'Zebra', 'zebra', 'ß', 'ss', 'é', 'e\u0301', '中', '😀', '\uffff', 'a b', 'a\tb', '', '10', '9'][Math.floor(random() * 17)];
      const row: Record<string, unknown> = { i, s, v: value(random), m: { 'gpt-4.1': random() < 0.5 ? Math.floor(random() * 5) : s }, xs: [value(random) ?? 0, s] };
      if (random() < 0.1) delete row['v'];
      if (random() < 0.05) row['nul'] = 'has\u0000nul';
      return row;
    });

  it('digests, reads back and sorts Unicode and mixed-type values the same way (code point order)', async () => {
    const rows = [...rowsOf(prng(3), 300), 1, 'two', null, [3], { z: { b: 1, a: 2 }, a: [] }];
    const created = (await both('/table/create', { project_id: 'parity/t', rows })) as { digest: string; row_digests: string[] };
    const sorts = [[{ field: 's' }], [{ field: 's', order: 'desc' }, { field: 'i', order: 'desc' }], [{ field: 'v' }], [{ field: 'v', order: 'desc' }],
      [{ field: 'm."gpt-4.1"' }], [{ field: 'xs.0' }, { field: 'xs.1', order: 'desc' }], [{ field: 'z' }], [{ field: 'nul' }]];
    for (const sort_by of sorts) {
      for (const page of [{}, { limit: 7, offset: 11 }, { filter: { row_digests: created.row_digests.slice(5, 60) } }]) {
        await both('/table/query', { project_id: 'parity/t', digest: created.digest, sort_by, ...page });
      }
    }
  });

  it('answers the same for a 5,000-row table, paged and sorted', async () => {
    const rows = rowsOf(prng(9), 5_000);
    const created = (await both('/table/create', { project_id: 'parity/big', rows })) as { digest: string };
    const all = (await both('/table/query', { project_id: 'parity/big', digest: created.digest })) as { rows: unknown[] };
    expect(all.rows).toHaveLength(5_000);
    await both('/table/query', { project_id: 'parity/big', digest: created.digest, sort_by: [{ field: 'v', order: 'desc' }], limit: 500, offset: 4_700 });
    await both('/table/query', { project_id: 'parity/big', digest: created.digest, sort_by: [{ field: 's' }, { field: 'v' }], offset: 123 });
  });
});

describe('training and objects', () => {
  it('answers the same trajectory metrics after several logs', async () => {
    const random = prng(5);
    for (let k = 0; k < 6; k++) {
      const groups = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
        trajectories: Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
          reward: random() * 4 - 1.5,
          messages_and_choices: Array.from({ length: Math.floor(random() * 4) }, () => ({ role: 'user', content: 'x' })),
          metrics: { tokens: Math.floor(random() * 500) / 3, correct: random() < 0.5, note: 'x\u0000', [random() < 0.5 ? 'a' : 'ключ']: random() },
        })),
      }));
      await both('/v1/preview/models/parity-model/log', { split: ['train', 'val', 'test'][k % 3], trajectory_groups: groups });
    }
  });

  it('answers the same object versions, reads and queries', async () => {
    const project = 'parity/objects';
    const vals = [{ b: 1, a: 'é 😀' }, { a: 'é 😀', b: 1 }, { _class_name: 'Dataset', _bases: ['Dataset', 'Object', 'BaseModel'], rows: [1, 2] }, { s: 'x\u0000' }];
    for (const [i, val] of vals.entries()) await both('/obj/create', { obj: { project_id: project, object_id: i < 2 ? 'cfg' : `o${i}`, val } }, [FIXED + i]);
    await both('/obj/create', { obj: { project_id: project, object_id: 'cfg', val: { c: 3 } } }, [FIXED + 10]);
    for (const digest of ['latest', 'v0', 'v1', 'v2']) {
      const s = await post(sqlite.server, '/obj/read', { project_id: project, object_id: 'cfg', digest });
      const p = await post(postgres.server, '/obj/read', { project_id: project, object_id: 'cfg', digest });
      expect([p.status, await p.text()]).toEqual([s.status, await s.text()]);
    }
    await both('/objs/query', { project_id: project });
    await both('/objs/query', { project_id: project, filter: { latest_only: true }, sort_by: [{ field: 'object_id', order: 'desc' }] });
    await both('/objs/query', { project_id: project, filter: { base_object_classes: ['Dataset'] }, metadata_only: true });
  });
});

describe('text PostgreSQL cannot hold (the documented differences)', () => {
  it('answers 422 on PostgreSQL, never 500, for U+0000 in a text field (SQLite stores it)', async () => {
    const body = { batch: [{ project_id: 'parity/nul', svc_ref: 'svc:///parity/nul/call/c1', feedback_type: 'a\u0000b', payload: {} }] };
    expect((await post(sqlite.server, '/feedback/batch/create', body)).status).toBe(200);
    const res = await post(postgres.server, '/feedback/batch/create', body);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { msg: string }[] }).detail[0]!.msg).toMatch(/U\+0000/);
  });

  it('stores an unpaired surrogate as U+FFFD on PostgreSQL (same digests), and U+0000 inside JSON as is', async () => {
    const rows = [{ s: 'a\ud800b', t: 'x\u0000y' }, { s: '\udc00', t: 'z' }];
    const made = (await both('/table/create', { project_id: 'parity/sur', rows })) as { digest: string };
    const read = async (s: Clocked): Promise<unknown> =>
      ((await (await post(s.server, '/table/query', { project_id: 'parity/sur', digest: made.digest, sort_by: [{ field: 't' }] })).json()) as { rows: { val: unknown }[] }).rows.map((r) => r.val);
    expect(await read(sqlite)).toEqual(rows);
    expect(await read(postgres)).toEqual([{ s: 'a\ufffdb', t: 'x\u0000y' }, { s: '\ufffd', t: 'z' }]);
  });
});

describe('two servers on one PostgreSQL database', () => {
  it('number concurrent versions of one object without losing any, and agree on feedback ids and tables created at once', async () => {
    const { freshPgDatabase } = await import('weft-test-kit/pg.js');
    const database = await freshPgDatabase('two');
    const servers = await Promise.all([0, 1].map(() => startTestServer({ db: database.url })));
    try {
      const project = 'two/servers';
      const creates = Array.from({ length: 40 }, (_, i) => post(servers[i % 2]!, '/obj/create', { obj: { project_id: project, object_id: 'shared', val: { n: i } } }));
      expect((await Promise.all(creates)).map((r) => r.status)).toEqual(Array(40).fill(200));
      const objs = (await (await post(servers[0]!, '/objs/query', { project_id: project, metadata_only: true })).json()) as { objs: { version_index: number }[] };
      expect(objs.objs.map((o) => o.version_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));

      const id = '00000000-0000-7000-8000-00000000beef';
      const fb = (payload: unknown) => ({ batch: [{ id, project_id: project, svc_ref: `svc:///${project}/call/c`, feedback_type: 't', payload }] });
      const answers = await Promise.all(servers.map(async (s, i) => ((await (await post(s, '/feedback/batch/create', fb({ from: i }))).json()) as { res: unknown[] }).res[0]));
      expect(answers[1]).toEqual(answers[0]);

      const rows = Array.from({ length: 2000 }, (_, i) => ({ i }));
      const tables = await Promise.all(servers.map(async (s) => (await post(s, '/table/create', { project_id: project, rows })).json()));
      expect(tables[1]).toEqual(tables[0]);
      const read = (await (await post(servers[1]!, '/table/query', { project_id: project, digest: (tables[0] as { digest: string }).digest })).json()) as { rows: unknown[] };
      expect(read.rows).toHaveLength(2000);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await database.drop();
    }
  });
});

describe('calls: $expr edge cases', () => {
  const project = 'parity/expr';
  const call = (i: number, op: string, inputs: unknown) => ({
    mode: 'start',
    req: { start: { project_id: project, id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`, trace_id: `t${i}`, op_name: op, started_at: `2026-01-01T00:00:0${i}.000Z`, attributes: {}, inputs } },
  });

  beforeAll(async () => {
    const batch = [
      call(0, '10', { o: { '0': 'zero', '1': 'one' }, d: 3, f: 0.1, x: 'a\u0000b', arr: ['p', 'q'] }),
      call(1, '9', { o: { a: 1 }, d: 2.5, f: 1 / 3, x: 'plain', arr: [] }),
      call(2, 'op', { o: ['first'], d: '4', f: 1e20, x: null }),
      call(3, 'true', { o: { '00': 'double zero' }, d: true, f: -0, x: 'a' }),
    ];
    await both('/call/upsert_batch', { batch });
  });

  /** The last digit of each record's id, or the whole body when it is not records. */
  const ids = (text: string): string[] =>
    text.startsWith('{"id"') ? text.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id.slice(-1)) : text === '' ? [] : [text.slice(0, 200)];
  const expr = async (e: unknown, extra: Record<string, unknown> = {}): Promise<string[]> => {
    const texts: string[] = [];
    for (const s of [sqlite, postgres]) {
      const res = await post(s.server, '/calls/stream_query', { project_id: project, query: { $expr: e }, ...extra });
      texts.push(`${res.status} ${await res.text()}`);
    }
    const what = `${JSON.stringify(e)} ${JSON.stringify(extra)}`;
    expect(`${what}: ${texts[1]!.slice(0, 4)}${ids(texts[1]!.slice(4)).join(',')}`).toBe(`${what}: ${texts[0]!.slice(0, 4)}${ids(texts[0]!.slice(4)).join(',')}`);
    expect(texts[1], what).toBe(texts[0]);
    return ids(texts[0]!.slice(4));
  };
  const f = (p: string) => ({ $getField: p });
  const lit = (v: unknown) => ({ $literal: v });

  it('compares a text column with a number literal', async () => {
    for (const op of ['$eq', '$gt', '$gte', '$lt', '$lte']) {
      for (const v of [10, 9, 9.5, true, 0]) {
        await expr({ [op]: [f('op_name'), lit(v)] });
        await expr({ [op]: [lit(v), f('op_name')] });
      }
    }
    await expr({ $in: [f('op_name'), [lit(10), lit(9), lit('op')]] });
    await expr({ $eq: [f('op_name'), { $convert: { input: f('inputs.d'), to: 'double' } }] });
  });

  it('gives a double the same text form', async () => {
    for (const p of ['inputs.d', 'inputs.f', 'op_name']) {
      // not 'e+' nor '0.0': SQLite writes 1e20 as '1.0e+20', PostgreSQL's numeric as '100000000000000000000.0' (a known difference)
      for (const sub of ['.0', '3.0', '0.1', '0.33', '-0', '2.5', '.5']) {
        await expr({ $contains: { input: { $convert: { input: f(p), to: 'double' } }, substr: lit(sub) } });
        await expr({ $eq: [{ $convert: { input: { $convert: { input: f(p), to: 'double' } }, to: 'string' } }, lit(sub)] });
      }
    }
  });

  it('reads a numeric path step on an object', async () => {
    const paths = ['inputs.o.0', 'inputs.o.1', 'inputs.o.00', 'inputs.o."0"', 'inputs."o"."0"', 'inputs.arr.0', 'inputs.arr.1', 'inputs.arr."0"', 'inputs."arr".1',
      'inputs.arr.-1', 'inputs.arr."-1"', 'inputs.arr.+1', 'inputs.arr. 1', 'inputs.o.-1', 'inputs.0', 'inputs."0"'];
    for (const p of paths) {
      await expr({ $eq: [f(p), lit('zero')] });
      await expr({ $eq: [f(p), lit('first')] });
      await expr({ $eq: [f(p), lit('p')] });
      await expr({ $eq: [f(p), lit('q')] });
      await expr({ $eq: [{ $convert: { input: f(p), to: 'exists' } }, lit(true)] });
      await expr({ $eq: [lit(1), lit(1)] }, { sort_by: [{ field: p }, { field: 'id' }] });
    }
  });

  it('sorts the same with a field repeated (PostgreSQL reads each once)', async () => {
    const sorts = [
      [{ field: 'inputs.d' }, { field: 'inputs.d', order: 'desc' }, { field: 'op_name', order: 'desc' }],
      [{ field: 'op_name', order: 'desc' }, { field: 'inputs.f' }, { field: 'op_name' }, { field: 'inputs.f', order: 'desc' }],
      Array.from({ length: 32 }, (_, i) => ({ field: 'inputs.o.0', order: i % 2 ? 'desc' : 'asc' })),
    ];
    for (const sort_by of sorts) await expr({ $eq: [lit(1), lit(1)] }, { sort_by });
  });

  it('reads a value holding \\u0000 without an error', async () => {
    expect(await expr({ $contains: { input: f('inputs.x'), substr: lit('b') } })).toEqual(['0']);
    await expr({ $gt: [f('inputs.x'), lit('a')] });
    await expr({ $eq: [{ $convert: { input: f('inputs.x'), to: 'exists' } }, lit(true)] });
    await expr({ $eq: [lit(1), lit(1)] }, { sort_by: [{ field: 'inputs.x' }, { field: 'id' }] });
  });
});

