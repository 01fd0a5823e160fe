// @weft-test: postgres
// client.calls.iterate(): auto-pagination of stream_query yields every record exactly once, against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigError, q, RequestValidationError } from '../../../src/index.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
let client: Client;
const N = 237;
const project = uniqueProject('pages');
const T0 = Date.parse('2024-05-01T10:00:00Z');
// Many calls share a started_at (groups of 7), so paging must break ties by id.
const startedAt = (i: number): string => new Date(T0 + Math.floor(i / 7) * 1000).toISOString();
const callId = (i: number): string => `call-${String((i * 101) % N).padStart(4, '0')}`;

async function insert(p: string, from: number, to: number, at: (i: number) => string = startedAt): Promise<void> {
  const batch = [];
  for (let i = from; i < to; i++) {
    batch.push({
      mode: 'start' as const,
      req: { start: { project_id: p, id: callId(i), op_name: i % 2 ? 'odd' : 'even', started_at: at(i), inputs: { i }, attributes: {} } },
    });
  }
  await client.calls.upsertBatch({ batch });
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  await insert(project, 0, N);
});
afterAll(() => client.close());

describe('calls.iterate', () => {
  it.each([1, 7, 10, 100, 236, 237, 1000])('yields each of N records exactly once, in order, with pageSize %i', async (pageSize) => {
    const all = await collect(client.calls.iterate({ project_id: project }, { pageSize }));
    const single = await client.calls.streamQuery({ project_id: project }).toArray();
    expect(all.map((r) => r.id)).toEqual(single.map((r) => r.id));
    expect(new Set(all.map((r) => r.id)).size).toBe(N);
  });

  it('honours filter, query, limit and offset across pages', async () => {
    const body = { project_id: project, filter: { op_names: ['odd'] }, query: q.expr(q.gte(q.field('inputs.i'), 10)), offset: 5, limit: 40 };
    const paged = await collect(client.calls.iterate(body, { pageSize: 9 }));
    const single = await client.calls.streamQuery(body).toArray();
    expect(paged.map((r) => r.id)).toEqual(single.map((r) => r.id));
    expect(paged).toHaveLength(40);
  });

  it('pages with sort_by by offset, each record once', async () => {
    const body = { project_id: project, sort_by: [{ field: 'inputs.i', order: 'desc' as const }] };
    const paged = await collect(client.calls.iterate(body, { pageSize: 25 }));
    expect(paged.map((r) => r.inputs?.['i'])).toEqual(Array.from({ length: N }, (_, i) => N - 1 - i));
  });

  it('passes columns and include options through, typed as partial records', async () => {
    const paged = await collect(client.calls.iterate({ project_id: project, columns: ['op_name'], include_storage_size: true, limit: 12 }, { pageSize: 5 }));
    expect(paged).toHaveLength(12);
    for (const r of paged) {
      expect(Object.keys(r).sort()).toEqual(['id', 'op_name', 'project_id', 'started_at', 'storage_size_bytes', 'trace_id']);
      expect(r.storage_size_bytes).toBeGreaterThan(0);
    }
  });

  it('never repeats a record when calls are written between pages', async () => {
    const p = uniqueProject('pages-live');
    await insert(p, 0, 60);
    const seen: string[] = [];
    for await (const r of client.calls.iterate({ project_id: p }, { pageSize: 10 })) {
      seen.push(r.id);
      // After each page, more calls land before the ones already read (earlier started_at): offset paging would repeat.
      if (seen.length % 10 === 0 && seen.length <= 30) {
        await client.calls.upsertBatch({
          batch: [0, 1, 2].map((k) => ({
            mode: 'start' as const,
            req: { start: { project_id: p, id: `early-${seen.length}-${k}`, op_name: 'x', started_at: '2024-01-01T00:00:00.000Z', inputs: {}, attributes: {} } },
          })),
        });
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    const original = await client.calls.streamQuery({ project_id: p, query: q.expr(q.not(q.contains(q.field('id'), 'early-'))) }).toArray();
    expect(seen.filter((id) => !id.startsWith('early-'))).toEqual(original.map((r) => r.id));
  });

  it('stops the current request when the loop breaks', async () => {
    let n = 0;
    for await (const _ of client.calls.iterate({ project_id: project }, { pageSize: 50 })) {
      if (++n === 3) break;
    }
    expect(n).toBe(3);
  });

  it('validates the request before sending and the page size when iteration starts', async () => {
    expect(() => client.calls.iterate({ project_id: '' })).toThrow(RequestValidationError);
    await expect(collect(client.calls.iterate({ project_id: project }, { pageSize: 0 }))).rejects.toBeInstanceOf(ConfigError);
  });
});
