// The viewer's resolution of a trace URL (src/ui/trace-ids.ts) against a real server, without a browser: a call id in
// the trace's place, and ids without dashes, lead to the trace as stored with the call selected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { traceTarget, type IdsOf } from '../../src/ui/trace-ids.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { batch, query, start, startItem } from 'weft-test-kit/server-http.js';

const TRACE = 'b4494dd8-364e-f7b5-6681-bdc99fad539e';
const ROOT = 'b4494dd8-364e-f7b5-0000-0000000000b1';
const CHILD = 'b4494dd8-364e-f7b5-0000-0000000000b2';
const bare = (id: string): string => id.replaceAll('-', '');
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await batch(server, [
    startItem(start({ id: ROOT, trace_id: TRACE, op_name: 'agent', started_at: '2024-05-01T10:00:00Z' })),
    startItem(start({ id: CHILD, trace_id: TRACE, parent_id: ROOT, op_name: 'chat', started_at: '2024-05-01T10:00:01Z' })),
  ]);
});
afterAll(() => server?.close());

/** What the trace view does: the calls of the URL's trace id, then the target (calls looked up by id on the server). */
async function resolve(traceId: string, callId?: string) {
  const found = (await query(server, { filter: { trace_ids: [traceId] }, columns: ['id', 'trace_id'] })) as unknown as IdsOf[];
  const callById = async (id: string) => (await query(server, { filter: { call_ids: [id] }, columns: ['id', 'trace_id'], limit: 1 }))[0] as unknown as IdsOf | undefined;
  return traceTarget(found, traceId, callId, callById);
}

describe('the viewer resolves the ids of a trace URL', () => {
  it('leaves a stored trace id alone, with or without a stored call id', async () => {
    expect(await resolve(TRACE)).toBeUndefined();
    expect(await resolve(TRACE, CHILD)).toBeUndefined();
  });

  it('opens a call id in the trace place as its trace with the call selected, dashes or not', async () => {
    expect(await resolve(CHILD)).toEqual({ traceId: TRACE, callId: CHILD });
    expect(await resolve(bare(ROOT))).toEqual({ traceId: TRACE, callId: ROOT });
  });

  it('turns a trace id and a call id without dashes into the stored ones', async () => {
    expect(await resolve(bare(TRACE))).toEqual({ traceId: TRACE });
    expect(await resolve(bare(TRACE), bare(CHILD))).toEqual({ traceId: TRACE, callId: CHILD });
  });

  it('answers nothing for an id no call or trace has (the view keeps waiting for it)', async () => {
    expect(await resolve('0192f5a0-0000-7000-8000-000000000000')).toBeUndefined();
  });
});
