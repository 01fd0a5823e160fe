// @weft-test: postgres
// stream_query columns, expand_columns / return_expanded_column_values, and the accept header, through the typed client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ValidationError } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';

const server = useTestServer();
let client: Client;
const project = uniqueProject('columns');
const callRef = (id: string, p = project): string => `svc:///${p}/call/${id}`;
const OBJECT_REF = 'svc:///acme/demo/object/dataset:abc123';

const start = (id: string, extra: Record<string, unknown> = {}) => ({
  mode: 'start' as const,
  req: { start: { project_id: project, id, op_name: `op-${id}`, started_at: '2024-05-01T10:00:00.000Z', inputs: {}, attributes: {}, ...extra } },
});

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  await client.calls.upsertBatch({
    batch: [
      start('a', { inputs: { question: 'why?', deep: { x: 1, y: 2 }, list: [10, 20] }, attributes: { env: 'dev' } }),
      start('b', {
        started_at: '2024-05-01T10:00:01.000Z',
        inputs: { parent: callRef('a'), data: OBJECT_REF, many: [callRef('a'), callRef('missing'), 'plain'], foreign: callRef('a', 'other/project') },
      }),
      start('c', { started_at: '2024-05-01T10:00:02.000Z', inputs: { up: callRef('b') } }),
      { mode: 'end' as const, req: { end: { project_id: project, id: 'a', ended_at: '2024-05-01T10:00:03.000Z', output: 42, summary: {} } } },
    ],
  });
});
afterAll(() => client.close());

describe('columns', () => {
  // as Weave: id, project_id, trace_id, op_name and started_at always come (its REQUIRED_CALL_COLUMNS)
  it('returns the listed keys, plus the keys Weave always returns, in record order', async () => {
    const records = await client.calls.streamQuery({ project_id: project, columns: ['output', 'op_name'] }).toArray();
    const base = (id: string, second: number) => ({ id, project_id: project, op_name: `op-${id}`, trace_id: expect.any(String), started_at: `2024-05-01T10:00:0${second}.000Z` });
    expect(records).toEqual([{ ...base('a', 0), output: 42 }, { ...base('b', 1), output: null }, { ...base('c', 2), output: null }]);
    expect(Object.keys(records[0]!)).toEqual(['id', 'project_id', 'op_name', 'trace_id', 'started_at', 'output']);
  });

  // as Weave's test_calls_query_multiple_dupe_select_columns: a dotted path selects its whole top-level column
  it('answers the whole column for a dotted path; summary brings ended_at, exception and display_name', async () => {
    const [a] = await client.calls
      .streamQuery({ project_id: project, columns: ['inputs.question', 'inputs.deep.y', 'inputs.list.1', 'summary.status'], filter: { call_ids: ['a'] } })
      .toArray();
    expect(a!.inputs).toEqual({ question: 'why?', deep: { x: 1, y: 2 }, list: [10, 20] });
    expect(a!.summary).toMatchObject({ status: 'success', weave: { status: 'success', trace_name: 'op-a', latency_ms: 3000 } });
    expect(Object.keys(a!)).toEqual(['id', 'project_id', 'op_name', 'display_name', 'trace_id', 'started_at', 'ended_at', 'inputs', 'exception', 'summary']);
  });

  // Weave's test_call_read_with_unkown_llm selects `output_dump`: Weave's name of the stored column
  it('reads <column>_dump as the column', async () => {
    const [a] = await client.calls.streamQuery({ project_id: project, columns: ['output_dump'], filter: { call_ids: ['a'] } }).toArray();
    expect(a!.output).toBe(42);
  });

  it('answers 422 for an unknown column', async () => {
    const bad = client.calls.streamQuery({ project_id: project, columns: ['nope'] }).toArray();
    const err = await bad.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail?.[0]?.loc).toEqual(['body', 'columns', '0']);
  });
});

describe('expand_columns', () => {
  it('replaces call refs with the stored call records; other refs stay', async () => {
    const [b] = await client.calls
      .streamQuery({ project_id: project, filter: { call_ids: ['b'] }, expand_columns: ['inputs.parent', 'inputs.data', 'inputs.many', 'inputs.foreign'] })
      .toArray();
    const inputs = b!.inputs as Record<string, unknown>;
    expect(inputs['parent']).toMatchObject({ id: 'a', op_name: 'op-a', output: 42, summary: { status: 'success' } });
    expect(inputs['data']).toBe(OBJECT_REF);
    expect(inputs['foreign']).toBe(callRef('a', 'other/project'));
    const many = inputs['many'] as unknown[];
    expect(many[0]).toMatchObject({ id: 'a' });
    expect(many.slice(1)).toEqual([callRef('missing'), 'plain']);
  });

  it('expands nested refs, shallow paths first', async () => {
    const [c] = await client.calls
      .streamQuery({ project_id: project, filter: { call_ids: ['c'] }, expand_columns: ['inputs.up.inputs.parent', 'inputs.up'] })
      .toArray();
    const up = (c!.inputs as { up: { id: string; inputs: { parent: { id: string } } } }).up;
    expect(up.id).toBe('b');
    expect(up.inputs.parent.id).toBe('a');
  });

  it('leaves refs as stored when return_expanded_column_values is false', async () => {
    const [b] = await client.calls
      .streamQuery({ project_id: project, filter: { call_ids: ['b'] }, expand_columns: ['inputs.parent'], return_expanded_column_values: false })
      .toArray();
    expect(b!.inputs?.['parent']).toBe(callRef('a'));
  });

  it('works with columns', async () => {
    const records = await client.calls
      .streamQuery({ project_id: project, filter: { call_ids: ['b'] }, columns: ['inputs.parent'], expand_columns: ['inputs.parent'] })
      .toArray();
    expect(records).toEqual([expect.objectContaining({ id: 'b', inputs: expect.objectContaining({ parent: expect.objectContaining({ id: 'a', op_name: 'op-a' }), data: OBJECT_REF }) })]);
  });
});

describe('accept header', () => {
  const body = { project_id: project, columns: ['op_name'], include_storage_size: true };

  it('answers JSONL by default and for application/jsonl', async () => {
    for (const headers of [{}, { accept: 'application/jsonl' }] as Record<string, string>[]) {
      const res = await post(server(), '/calls/stream_query', body, headers);
      expect(res.headers.get('content-type')).toBe('application/jsonl');
      const lines = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string });
      expect(lines.map((l) => l.id)).toEqual(['a', 'b', 'c']);
    }
  });

  it('answers one JSON array for application/json, with the same records', async () => {
    const res = await post(server(), '/calls/stream_query', body, { accept: 'application/json' });
    expect(res.headers.get('content-type')).toBe('application/json');
    const array = (await res.json()) as unknown[];
    const viaClient = await client.calls.streamQuery(body).toArray();
    expect(array).toEqual(viaClient);
    expect(Object.keys(array[0] as object)).toEqual(['id', 'project_id', 'op_name', 'trace_id', 'started_at', 'storage_size_bytes']);
  });
});
