// @weft-test: postgres
// Tests of error answers over loopback HTTP: 422 detail locs, malformed JSON, 404, 405, 413.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { PROJECT, end, endItem, post, start, startItem } from 'weft-test-kit/server-http.js';

interface Detail {
  loc: string[];
  msg: string;
  type: string;
}

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => server.close());

async function detail(res: Response): Promise<Detail[]> {
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: Detail[] }).detail;
}

describe('422 validation errors', () => {
  it('names a missing field inside a batch item', async () => {
    const { op_name: _dropped, ...noOpName } = start();
    const d = await detail(await post(server, '/call/upsert_batch', { batch: [startItem(start()), startItem(noOpName)] }));
    expect(d).toEqual([{ loc: ['body', 'batch', '1', 'req', 'start', 'op_name'], msg: 'Field required', type: 'missing' }]);
  });

  it('names a field of the wrong type', async () => {
    const d = await detail(await post(server, '/call/upsert_batch', { batch: [endItem(end('x', { id: 7 }))] }));
    expect(d).toEqual([{ loc: ['body', 'batch', '0', 'req', 'end', 'id'], msg: expect.stringContaining('expected string'), type: 'string_type' }]);
  });

  it('reports every problem of a body', async () => {
    const d = await detail(await post(server, '/call/start', { start: start({ attributes: [], svc_run_step: 1.5, started_at: 'soon' }) }));
    expect(d.map((x) => x.loc)).toEqual([
      ['body', 'start', 'started_at'],
      ['body', 'start', 'attributes'],
      ['body', 'start', 'svc_run_step'],
    ]);
  });

  it('names a missing body field and a bad batch mode', async () => {
    expect((await detail(await post(server, '/call/start', {})))[0]?.loc).toEqual(['body', 'start']);
    expect((await detail(await post(server, '/calls/stream_query', {})))[0]).toMatchObject({ loc: ['body', 'project_id'], type: 'missing' });
    const d = await detail(await post(server, '/call/upsert_batch', { batch: [{ mode: 'finish', req: {} }] }));
    expect(d[0]).toMatchObject({ loc: ['body', 'batch', '0', 'mode'], type: 'union_tag_invalid' });
  });

  it('checks stream_query fields', async () => {
    const d = await detail(await post(server, '/calls/stream_query', { project_id: PROJECT, limit: -1, filter: { call_ids: 'a' } }));
    expect(d.map((x) => x.loc)).toEqual([['body', 'filter', 'call_ids'], ['body', 'limit']]);
  });

  it('answers malformed JSON with json_invalid', async () => {
    const d = await detail(await post(server, '/call/start', '{"start": '));
    expect(d).toEqual([{ loc: ['body'], msg: expect.stringContaining('JSON'), type: 'json_invalid' }]);
    expect((await detail(await post(server, '/call/upsert_batch', '')))[0]?.type).toBe('json_invalid');
  });
});

describe('other error statuses', () => {
  it('answers 404 {detail:"Not Found"} for unknown paths', async () => {
    for (const res of [await post(server, '/calls/nope', {}), await fetch(`${server.url}/nope`)]) { // GET / is the trace viewer (issue 13)
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await fetch(`${server.url}/call/start`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ detail: 'Method Not Allowed' });
  });

  it('answers 413 naming the limit for a body over maxBodyBytes, and stores nothing', async () => {
    const big = start({ id: 'big', inputs: { blob: 'x'.repeat(70 * 1024) } });
    const res = await post(server, '/call/start', { start: big });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toContain(String(64 * 1024));
    expect(await server.store.countRows(PROJECT)).toBe(0);
    const ok = await post(server, '/call/start', { start: start({ inputs: { blob: 'x'.repeat(1024) } }) });
    expect(ok.status).toBe(200);
  });

  it('accepts requests without an Authorization header', async () => {
    const res = await fetch(`${server.url}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: PROJECT }) });
    expect(res.status).toBe(200);
  });
});
