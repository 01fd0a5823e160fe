/**
 * Test helper of the batch-writes property tests (SQLite: test/server/calls/batch-writes.test.ts, PostgreSQL parity:
 * test/server/db/pg-batch-writes.test.ts): fast-check generators of upsert_batch items over a few projects and call
 * ids, so items collide (repeated starts and ends, ends before starts, named starts and ends, parents, refs), and
 * the naming of generated ids that makes two stores' rows comparable.
 * @module
 */
import fc from 'fast-check';
import type { UpsertItem } from 'weft-server';

const project = fc.constantFrom('e/p', 'e/q');
const callId = fc.constantFrom('a', 'b', 'c', 'd');
const maybeRef = fc.constantFrom({}, { q: 'plain' }, { doc: 'svc:///e/p/object/doc:1' }, { see: ['svc:///e/p/call/a.', 'svc:///e/p/object/x:2'] });
const at = fc.integer({ min: 0, max: 59 }).map((s) => `2024-05-01T12:00:${String(s).padStart(2, '0')}+02:00`);

/** A start of one of 4 calls in 2 projects, with or without id-inherited trace, parent, name, run step. */
export const startItem: fc.Arbitrary<UpsertItem> = fc
  .record({
    project_id: project, id: callId, op_name: fc.constantFrom('f', 'g'), started_at: at, attributes: fc.constantFrom({}, { k: 1 }),
    inputs: maybeRef, trace_id: fc.constantFrom(undefined, 't1', 't2'), parent_id: fc.constantFrom(undefined, 'a', 'b'),
    display_name: fc.constantFrom(undefined, 'shown', 'other'), svc_run_step: fc.constantFrom(undefined, 3),
  })
  .map((start): UpsertItem => ({ mode: 'start', req: { start } }));

/** An end of one of the same calls, with or without output refs, exception, name. */
export const endItem: fc.Arbitrary<UpsertItem> = fc
  .record({
    project_id: project, id: callId, ended_at: at, output: fc.oneof(maybeRef, fc.constant(undefined)),
    exception: fc.constantFrom(undefined, 'boom'), summary: fc.constantFrom({}, { status_counts: { success: 1 } }),
    display_name: fc.constantFrom(undefined, 'renamed'),
  })
  .map((end): UpsertItem => ({ mode: 'end', req: { end } }));

/** Up to 12 starts and ends. */
export const batchItems: fc.Arbitrary<UpsertItem[]> = fc.array(fc.oneof(startItem, endItem), { maxLength: 12 });

/** `state` as JSON with generated ids (UUIDv7) named by first appearance (`generated-0`, ...): each store generates its own. */
export function namedIds(state: unknown): string {
  const names = new Map<string, string>();
  return JSON.stringify(state).replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!names.has(id)) names.set(id, `generated-${names.size}`);
    return names.get(id) ?? id;
  });
}
