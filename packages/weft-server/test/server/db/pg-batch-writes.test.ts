// Parity property test of the PostgreSQL batch writer: random prior state and batch, written by the SQLite store and by
// the PostgreSQL store, leave the same calls and refs rows and give the same answers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/server/index.js';
import { pgCallEngine } from '../../../src/server/pg-store.js';
import { pgRunner } from '../../../src/server/db/sql-runner.js';
import { openPgDatabase, type PgDatabase } from '../../../src/server/db/pg-database.js';
import { batchItems, namedIds } from 'weft-test-kit/batch-items.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { engineParts, storeParts } from '../../../src/server/server-store.js';

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

describe('CallStore.upsertBatch on PostgreSQL', () => {
  it('leaves the rows, refs and answers the SQLite store leaves, for any prior state and batch', async () => {
    const pgCalls = engineParts(pgRunner(db), pgCallEngine(db), { prices: {} }, { pg: db }).calls;
    await fc.assert(
      fc.asyncProperty(batchItems, batchItems, async (before, batch) => {
        const sqlite = openStore(':memory:');
        try {
          await sqlite.upsertBatch(before);
          const expected = namedIds({
            answers: await sqlite.upsertBatch(batch),
            calls: storeParts(sqlite).sqlite!.prepare('SELECT * FROM calls ORDER BY project_id, id').all(),
            refs: storeParts(sqlite).sqlite!.prepare('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref').all(),
          });
          await db.pool.query('TRUNCATE calls, call_refs, call_renames');
          await pgCalls.upsertBatch(before);
          const answers = await pgCalls.upsertBatch(batch);
          const calls = (await db.pool.query('SELECT * FROM calls ORDER BY project_id, id')).rows;
          const refs = (await db.pool.query('SELECT * FROM call_refs ORDER BY project_id, call_id, kind, ref')).rows;
          expect(namedIds({ answers, calls, refs })).toBe(expected);
        } finally {
          await sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
