// @weft-test: postgres runtime runtime-postgres
// Tests of POST /call/upsert_batch over loopback HTTP: order of answers, ends before/with/after starts, idempotency, atomicity.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { UUIDV7, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { PROJECT, batch, end, endItem, ids, post, query, start, startItem } from 'weft-test-kit/server-http.js';
import { END_FIELDS, type FieldKind, START_FIELDS } from '../../../src/server/calls/write/call-fields.js';
import { fastParseUpsertBatch } from '../../../src/server/calls/write/upsert-batch-parse.js';

let server: RunningServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

describe('POST /call/upsert_batch', () => {
  it('answers one item per batch item, in order', async () => {
    const res = await batch(server, [
      startItem(start({ id: 'a' })),
      startItem(start()),
      endItem(end('a')),
      startItem(start({ id: 'b', trace_id: 't-b' })),
    ]);
    expect(res).toHaveLength(4);
    expect(res[0]).toEqual({ id: 'a', trace_id: expect.stringMatching(UUIDV7) });
    expectUuidv7(res[1]?.['id']);
    expect(res[2]).toEqual({});
    expect(res[3]).toEqual({ id: 'b', trace_id: 't-b' });
  });

  it('ends a call started in the same batch', async () => {
    await batch(server, [startItem(start({ id: 'x' })), endItem(end('x', { output: { ok: true } }))]);
    const [rec] = await query(server);
    expect(rec).toMatchObject({ id: 'x', ended_at: '2024-05-01T10:00:01.000Z', output: { ok: true } });
  });

  it('ends a call started in an earlier batch', async () => {
    await batch(server, [startItem(start({ id: 'x' }))]);
    expect((await query(server))[0]?.['ended_at']).toBeNull();
    await batch(server, [endItem(end('x', { output: 42 }))]);
    expect((await query(server))[0]).toMatchObject({ ended_at: '2024-05-01T10:00:01.000Z', output: 42 });
  });

  it('keeps an end that arrives before its start, hidden until the start lands', async () => {
    await batch(server, [endItem(end('early', { output: 'done', exception: { type: 'E', message: 'boom' } }))]);
    expect(await query(server)).toEqual([]);
    expect(await server.store.countRows(PROJECT)).toBe(1);
    await batch(server, [startItem(start({ id: 'early', op_name: 'late_start' }))]);
    const records = await query(server);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      id: 'early', op_name: 'late_start', ended_at: '2024-05-01T10:00:01.000Z', output: 'done',
      exception: { type: 'E', message: 'boom' }, summary: { status: 'error', latency_ms: 1000 },
    });
  });

  it('never duplicates a call when start and end items are repeated', async () => {
    const items = [startItem(start({ id: 'r', trace_id: 't' })), endItem(end('r', { output: 1 }))];
    const first = await batch(server, items);
    const second = await batch(server, items);
    await batch(server, [items[1]!, items[0]!]);
    expect(second).toEqual(first);
    expect(await server.store.countRows(PROJECT)).toBe(1);
    const records = await query(server);
    expect(ids(records)).toEqual(['r']);
    expect(records[0]).toMatchObject({ trace_id: 't', output: 1, ended_at: '2024-05-01T10:00:01.000Z' });
  });

  it('stores nothing of a batch with an invalid item', async () => {
    const res = await post(server, '/call/upsert_batch', {
      batch: [startItem(start({ id: 'ok' })), startItem(start({ id: 'bad', started_at: 'yesterday' }))],
    });
    expect(res.status).toBe(422);
    expect(await server.store.countRows(PROJECT)).toBe(0);
  });

  it('batches sent at once (written in groups, one commit each) are each stored or refused whole', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => ({
      batch: [startItem(start({ id: `c${i}` })), i === 5 ? startItem(start({ id: 'bad', started_at: 'yesterday' })) : endItem(end(`c${i}`))],
    }));
    const statuses = await Promise.all(bodies.map(async (body) => (await post(server, '/call/upsert_batch', body)).status));
    expect(statuses).toEqual(bodies.map((_, i) => (i === 5 ? 422 : 200)));
    const stored = ids(await query(server)).sort();
    expect(stored).toEqual(bodies.map((_, i) => `c${i}`).filter((id) => id !== 'c5').sort());
    expect(await server.store.countRows(PROJECT)).toBe(11);
  });

  it('accepts an empty batch', async () => {
    expect(await batch(server, [])).toEqual([]);
  });

  it('stores every field of the start and end shapes (the table of call-fields.ts), through the fast parser', async () => {
    const sample: Record<FieldKind, (name: string) => unknown> = {
      'project': () => PROJECT, 'key': () => 'every-field', 'key?': () => 'every-field', 'name': () => 'op', 'text?': (n) => `v-${n}`,
      'end-name': () => 'end-name', 'time': () => '2024-05-01T10:00:00.000Z', 'object': (n) => ({ k: n }), 'object?': (n) => ({ k: n }),
      'json?': (n) => ({ k: n }), 'int?': () => 7, 'exception': () => ({ type: 'E', message: 'm' }), 'summary': () => ({ status_counts: { success: 1 } }),
      'count-mark': () => false,
    };
    const fill = (fields: Record<string, FieldKind>): Record<string, unknown> => Object.fromEntries(Object.entries(fields).map(([k, kind]) => [k, sample[kind](k)]));
    const body = { batch: [startItem(fill(START_FIELDS)), endItem(fill(END_FIELDS))] };
    const parsed = fastParseUpsertBatch(JSON.parse(JSON.stringify(body)));
    expect(parsed, 'the fast path takes it, every field kept').toEqual(body);
    await batch(server, body.batch);
    const [row] = await storeRows<Record<string, unknown>>(server, 'SELECT * FROM calls WHERE project_id = ? AND id = ?', [PROJECT, 'every-field']);
    for (const [name, kind] of [...Object.entries(START_FIELDS), ...Object.entries(END_FIELDS)]) {
      // the end's display_name replaces the start's (the batch-writes tests check that rule)
      if (['project', 'key', 'key?'].includes(kind) || (name === 'display_name' && kind !== 'end-name')) continue;
      // counted_in_parent: false marks the call uncounted (1 on SQLite, true on PostgreSQL)
      if (kind === 'count-mark') expect(Number(row?.['uncounted']), name).toBe(1);
      if (kind === 'count-mark') continue;
      const column = kind === 'end-name' ? 'display_name' : name;
      const sent = sample[kind](name);
      const stored = row?.[column];
      expect(typeof sent === 'object' ? JSON.parse(String(stored)) : String(stored), column).toEqual(typeof sent === 'object' ? sent : String(sent));
    }
  });
});
