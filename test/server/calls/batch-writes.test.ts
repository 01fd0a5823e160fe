// Property test of the batch writer: one batch stores exactly what its items applied one request at a time store (rows and refs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore, type Store, type UpsertItem } from '../../../src/server/index.js';

const project = fc.constantFrom('e/p', 'e/q');
const callId = fc.constantFrom('a', 'b', 'c', 'd');
const maybeRef = fc.constantFrom({}, { q: 'plain' }, { doc: 'svc:///e/p/object/doc:1' }, { see: ['svc:///e/p/call/a.', 'svc:///e/p/object/x:2'] });
const at = fc.integer({ min: 0, max: 59 }).map((s) => `2024-05-01T12:00:${String(s).padStart(2, '0')}+02:00`);

const startItem = fc
  .record({
    project_id: project, id: callId, op_name: fc.constantFrom('f', 'g'), started_at: at, attributes: fc.constantFrom({}, { k: 1 }),
    inputs: maybeRef, trace_id: fc.constantFrom(undefined, 't1', 't2'), parent_id: fc.constantFrom(undefined, 'a', 'b'),
    display_name: fc.constantFrom(undefined, 'shown'),
  })
  .map((start): UpsertItem => ({ mode: 'start', req: { start } }));
const endItem = fc
  .record({
    project_id: project, id: callId, ended_at: at, output: fc.oneof(maybeRef, fc.constant(undefined)),
    exception: fc.constantFrom(undefined, 'boom'), summary: fc.constantFrom({}, { status_counts: { success: 1 } }),
  })
  .map((end): UpsertItem => ({ mode: 'end', req: { end } }));
const items = fc.array(fc.oneof(startItem, endItem), { maxLength: 12 });

/** Rows, refs and answers, with generated ids (UUIDv7) named by first appearance: each store generates its own. */
function snapshot(store: Store, answers: unknown[]): string {
  const db = store.connection;
  const state = {
    calls: db.prepare('SELECT * FROM calls ORDER BY project_id, id').all(),
    refs: db.prepare('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref').all(),
    answers,
  };
  const names = new Map<string, string>();
  return JSON.stringify(state).replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!names.has(id)) names.set(id, `generated-${names.size}`);
    return names.get(id) ?? id;
  });
}

describe('upsertBatch', () => {
  it('stores what the same items store one at a time, in order (rows, refs, answers)', () => {
    fc.assert(
      fc.property(items, items, (before, batch) => {
        const together = openStore(':memory:');
        const apart = openStore(':memory:');
        try {
          together.upsertBatch(before);
          apart.upsertBatch(before);
          const a = together.upsertBatch(batch);
          const b = batch.map((item) => apart.upsertBatch([item])[0]);
          expect(snapshot(together, a)).toBe(snapshot(apart, b));
        } finally {
          together.close();
          apart.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
