// @weft-test: postgres
// Tests of POST /call/start over loopback HTTP: id generation, trace inheritance, idempotency, timestamps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { PROJECT, post, query, start } from 'weft-test-kit/server-http.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function startCall(body: Record<string, unknown>): Promise<{ id: string; trace_id: string }> {
  const res = await post(server, '/call/start', { start: body });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; trace_id: string };
}

describe('POST /call/start', () => {
  it('answers 422 with a detail naming project_id for a project that is not <entity>/<project> (issue 24 item 2)', async () => {
    for (const bad of ['quickstart', '/quickstart', 'acme/quick/start']) {
      const res = await post(server, '/call/start', { start: start({ project_id: bad }) });
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      expect(detail).toEqual([expect.objectContaining({ loc: ['body', 'start', 'project_id'], msg: `expected <entity>/<project> such as acme/demo, got ${JSON.stringify(bad)}` })]);
    }
    const batch = await post(server, '/call/upsert_batch', { batch: [{ mode: 'start', req: { start: start({ project_id: 'quickstart' }) } }] });
    expect(batch.status).toBe(422);
    expect(JSON.stringify(await batch.json())).toContain('got \\"quickstart\\"');
    expect(await server.store.countRows('quickstart')).toBe(0);
  });

  it('generates a UUIDv7 id and trace_id when absent', async () => {
    const a = await startCall(start());
    const b = await startCall(start());
    expectUuidv7(a.id);
    expectUuidv7(a.trace_id);
    expect(a.id).not.toBe(b.id);
    expect(a.trace_id).not.toBe(b.trace_id);
    expect((await server.store.getCall(PROJECT, a.id))?.trace_id).toBe(a.trace_id);
  });

  it('keeps the id and trace_id it is given', async () => {
    const res = await startCall(start({ id: 'given-id', trace_id: 'given-trace' }));
    expect(res).toEqual({ id: 'given-id', trace_id: 'given-trace' });
  });

  it("gives a child without trace_id its parent's trace_id", async () => {
    const parent = await startCall(start({ id: 'parent-1' }));
    const child = await startCall(start({ id: 'child-1', parent_id: 'parent-1' }));
    expect(child.trace_id).toBe(parent.trace_id);
  });

  it('is idempotent for a repeated start with the same id (same trace_id, one row)', async () => {
    const body = start({ id: 'repeat-1', op_name: 'repeat' });
    const first = await startCall(body);
    const second = await startCall(body);
    expect(second).toEqual(first);
    expect(await server.store.countRows(PROJECT)).toBe((await query(server)).length);
    expect(await query(server, { filter: { call_ids: ['repeat-1'] } })).toHaveLength(1);
  });

  it('stores every start field and normalizes started_at to UTC milliseconds', async () => {
    const { id } = await startCall(
      start({
        id: 'full-1', display_name: 'Full', thread_id: 'th', turn_id: 'tu', svc_run_id: 'run', svc_run_step: 4,
        svc_user_id: 'u', started_at: '2024-05-01T12:00:00.123456+02:00', attributes: { env: 'test' }, inputs: { a: 1 },
      }),
    );
    const [rec] = await query(server, { filter: { call_ids: [id] } });
    expect(rec).toMatchObject({
      id: 'full-1', display_name: 'Full', thread_id: 'th', turn_id: 'tu', svc_run_id: 'run', svc_run_step: 4,
      svc_user_id: 'u', started_at: '2024-05-01T10:00:00.123Z', ended_at: null, attributes: { env: 'test' }, inputs: { a: 1 },
    });
  });
});
