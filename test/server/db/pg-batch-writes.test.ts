// Parity property test of the PostgreSQL batch writer: random prior state and batch, written by the SQLite store and by
// the PostgreSQL store, leave the same calls and refs rows and give the same answers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type UpsertItem } from '../../../src/server/index.js';
import { PgCallStore } from '../../../src/server/calls/pg-call-store.js';
import { openPgDatabase, type PgDatabase } from '../../../src/server/db/pg-database.js';
import { type FreshDatabase, freshPgDatabase } from '../../helpers/pg.js';

const project = fc.constantFrom('e/p', 'e/q');
const callId = fc.constantFrom('a', 'b', 'c', 'd');
const maybeRef = fc.constantFrom({}, { q: 'plain' }, { doc: 'svc:///e/p/object/doc:1' }, { see: ['svc:///e/p/call/a.', 'svc:///e/p/object/x:2'] });
const at = fc.integer({ min: 0, max: 59 }).map((s) => `2024-05-01T12:00:${String(s).padStart(2, '0')}+02:00`);
const startItem = fc
  .record({
    project_id: project, id: callId, op_name: fc.constantFrom('f', 'g'), started_at: at, attributes: fc.constantFrom({}, { k: 1 }),
    inputs: maybeRef, trace_id: fc.constantFrom(undefined, 't1', 't2'), parent_id: fc.constantFrom(undefined, 'a', 'b'),
    display_name: fc.constantFrom(undefined, 'shown'), svc_run_step: fc.constantFrom(undefined, 3),
  })
  .map((start): UpsertItem => ({ mode: 'start', req: { start } }));
const endItem = fc
  .record({
    project_id: project, id: callId, ended_at: at, output: fc.oneof(maybeRef, fc.constant(undefined)),
    exception: fc.constantFrom(undefined, 'boom'), summary: fc.constantFrom({}, { status_counts: { success: 1 } }),
    display_name: fc.constantFrom(undefined, 'renamed'),
  })
  .map((end): UpsertItem => ({ mode: 'end', req: { end } }));
const items = fc.array(fc.oneof(startItem, endItem), { maxLength: 12 });

/** Rows and answers as JSON, generated UUIDv7s named by first appearance (each store generates its own). */
function normalized(state: unknown): string {
  const names = new Map<string, string>();
  return JSON.stringify(state).replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!names.has(id)) names.set(id, `generated-${names.size}`);
    return names.get(id) ?? id;
  });
}

let database: FreshDatabase;
let db: PgDatabase;
beforeAll(async () => {
  database = await freshPgDatabase('bw');
  db = await openPgDatabase(database.url);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('PgCallStore.upsertBatch', () => {
  it('leaves the rows, refs and answers the SQLite store leaves, for any prior state and batch', async () => {
    const pgCalls = new PgCallStore(db, { prices: {}, feedbackFor: () => new Map() });
    await fc.assert(
      fc.asyncProperty(items, items, async (before, batch) => {
        const sqlite = openStore(':memory:');
        try {
          sqlite.upsertBatch(before);
          const expected = normalized({
            answers: sqlite.upsertBatch(batch),
            calls: sqlite.connection.prepare('SELECT * FROM calls ORDER BY project_id, id').all(),
            refs: sqlite.connection.prepare('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref').all(),
          });
          await db.pool.query('TRUNCATE calls, call_refs, call_renames');
          await pgCalls.upsertBatch(before);
          const answers = await pgCalls.upsertBatch(batch);
          const calls = (await db.pool.query('SELECT * FROM calls ORDER BY project_id, id')).rows;
          const refs = (await db.pool.query('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref')).rows;
          expect(normalized({ answers, calls, refs })).toBe(expected);
        } finally {
          sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
