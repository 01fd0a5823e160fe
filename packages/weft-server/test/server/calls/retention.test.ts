// @weft-test: postgres
// Retention (issue 40, point 3) over loopback HTTP, on both stores: POST /weft/calls/delete_before deletes whole traces
// whose root started before the cutoff, with their feedback, in batches; the server's job (retentionDays) does the same
// while writes arrive; bad bodies answer 422 with detail.
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { CALLS_DELETE_BEFORE_PATH } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, type Json, post, query, start, startItem } from 'weft-test-kit/server-http.js';
import { storeRows } from 'weft-test-kit/store-sql.js';

const DAY = 86_400_000;
const server = useTestServer({ retentionDays: 30 });
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

/** A started and ended call of `project` (a root unless `parent` is given), `days` ago. */
function call(project: string, days: number, parent?: { id: string; trace_id: string }): { id: string; trace_id: string; items: Json[] } {
  const id = newId();
  const trace_id = parent?.trace_id ?? newId();
  const items = [
    startItem(start({ project_id: project, id, trace_id, parent_id: parent?.id, started_at: ago(days) })),
    endItem(end(id, { project_id: project, ended_at: ago(days) })),
  ];
  return { id, trace_id, items };
}

async function feedbackOn(project: string, callIds: string[]): Promise<void> {
  const res = await post(server(), '/feedback/batch/create', {
    batch: callIds.map((id) => ({ project_id: project, svc_ref: `svc:///${project}/call/${id}`, feedback_type: 'score', payload: { value: 1 } })),
  });
  expect(res.status).toBe(200);
}

async function feedbackCallIds(project: string): Promise<string[]> {
  return (await storeRows<{ call_id: string }>(server(), 'SELECT call_id FROM feedback WHERE project_id = ? ORDER BY call_id', [project])).map((r) => r.call_id);
}

async function deleteBefore(body: Json): Promise<Response> {
  return post(server(), CALLS_DELETE_BEFORE_PATH, body);
}

describe('POST /weft/calls/delete_before', () => {
  it('deletes whole traces whose root started before the cutoff, rootless old calls, and their feedback; keeps the rest', async () => {
    const project = uniqueProject('retention');
    const oldRoot = call(project, 40);
    const lateChild = call(project, 10, oldRoot); // started after the cutoff, in an old trace: goes with its root
    const newRoot = call(project, 5);
    const skewedChild = call(project, 35, newRoot); // started before the cutoff, in a new trace: stays with its root
    const orphan = call(project, 50, { id: newId(), trace_id: newId() }); // its root never arrived
    const other = call(uniqueProject('retention-other'), 40); // another project: untouched
    await batch(server(), [...oldRoot.items, ...lateChild.items, ...newRoot.items, ...skewedChild.items, ...orphan.items, ...other.items]);
    await feedbackOn(project, [oldRoot.id, lateChild.id, newRoot.id]);

    const res = await deleteBefore({ project_id: project, before: ago(30) });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Json;
    expect(answer).toMatchObject({ deleted_calls: 3, deleted_feedback: 2, batches: 2 });
    expect(ids(await query(server(), { project_id: project, sort_by: [{ field: 'started_at', direction: 'asc' }] }))).toEqual([skewedChild.id, newRoot.id]);
    expect(await feedbackCallIds(project)).toEqual([newRoot.id]);
    expect(ids(await query(server(), { project_id: (other.items[0] as { req: { start: Json } }).req.start['project_id'] }))).toEqual([other.id]);
  });

  it('deletes in batches of batch_size calls, a trace never split', async () => {
    const project = uniqueProject('retention-batches');
    const traces = Array.from({ length: 6 }, () => call(project, 40));
    const big = call(project, 45);
    const bigChildren = Array.from({ length: 4 }, () => call(project, 45, big));
    await batch(server(), [...traces.flatMap((t) => t.items), ...big.items, ...bigChildren.flatMap((t) => t.items)]);
    // oldest first: the 5-call trace alone (larger than a batch), then 3 + 3 single-call traces
    const answer = (await (await deleteBefore({ project_id: project, before: ago(30), batch_size: 3 })).json()) as Json;
    expect(answer).toMatchObject({ deleted_calls: 11, deleted_feedback: 0, batches: 3 });
    expect(await query(server(), { project_id: project })).toEqual([]);
  });

  it('answers 422 with detail for a bad body and for a cutoff later than the server clock', async () => {
    const cases: [Json, string][] = [
      [{ project_id: 'acme/x' }, 'before'],
      [{ project_id: 'acme/x', before: 'last tuesday' }, 'before'],
      [{ project_id: 'acme/x', before: ago(1), batch_size: 0 }, 'batch_size'],
      [{ project_id: 'acme/x', before: new Date(Date.now() + DAY).toISOString() }, 'before'],
    ];
    for (const [body, field] of cases) {
      const res = await deleteBefore(body);
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      expect(detail[0]).toEqual({ loc: ['body', field], msg: expect.any(String), type: expect.any(String) });
    }
  });
});

describe('weft serve --retention-days (the server job)', () => {
  it('deletes old traces in batches of 2,000 calls while writes arrive, and every acknowledged write is stored', async () => {
    const project = uniqueProject('retention-job');
    const old = Array.from({ length: 4_500 }, () => call(project, 31));
    for (let at = 0; at < old.length; at += 500) await batch(server(), old.slice(at, at + 500).flatMap((c) => c.items));
    const fresh = Array.from({ length: 20 }, () => Array.from({ length: 50 }, () => call(project, 0)));
    // the writes are sent while the job runs: each batch of the job takes its turn between them
    const [totals] = await Promise.all([server().retention!.runNow(), ...fresh.map((calls) => batch(server(), calls.flatMap((c) => c.items)))]);
    // 4,500 calls of this project in batches of 2,000, and whatever old traces the tests before left (the job sweeps every project)
    expect(totals.calls).toBeGreaterThanOrEqual(4_500);
    expect(totals.batches).toBeGreaterThanOrEqual(3);
    const stored = ids(await query(server(), { project_id: project })).sort();
    expect(stored).toEqual(fresh.flat().map((c) => c.id).sort());
  });
});
