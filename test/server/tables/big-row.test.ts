// Issue 11 item 5: one huge table row stored must not slow the creation of later tables (table_rows layout, migration 6).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../src/server/db/migrations.js';
import { registerSqlFunctions } from '../../../src/server/db/sql-functions.js';
import { TableStore } from '../../../src/server/tables/table-store.js';
import type { RunningServer } from '../../../src/server/index.js';
import { startTestServer } from '../../helpers/server.js';
import { post } from '../../helpers/server-http.js';

/** Creates a table over HTTP and returns the seconds it took. */
async function timedCreate(server: RunningServer, project: string, rows: unknown[]): Promise<number> {
  const t0 = performance.now();
  const res = await post(server, '/table/create', { project_id: project, rows });
  expect(res.status).toBe(200);
  await res.json();
  return (performance.now() - t0) / 1000;
}

/** Runs `body` against a server of its own, on a fresh in-memory database. */
async function withFreshServer<T>(body: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await startTestServer();
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

describe('table create time does not depend on what else is stored', () => {
  it('a 100,000-row create after a 2 MB row was stored first stays within 4x the fresh-database time', { timeout: 180_000 }, async () => {
    const rows = (c: string): string[] => Array.from({ length: 100_000 }, () => c);
    const fresh = await withFreshServer((s) => timedCreate(s, 'm/small', rows('a')));
    // The big row's project sorts after the other one, so the big row's key is a divider every later insert compares with.
    const [other, same] = await withFreshServer(async (s) => {
      await timedCreate(s, 'z/big', [{ text: 'x'.repeat(2 * 1024 * 1024) }]);
      return [await timedCreate(s, 'm/small', rows('a')), await timedCreate(s, 'z/big', rows('b'))];
    });
    console.log(`100,000-row create: ${fresh.toFixed(2)} s fresh; after a 2 MB row: ${other.toFixed(2)} s in another project, ${same.toFixed(2)} s in its project`);
    expect(other / fresh).toBeLessThan(4);
    expect(same / fresh).toBeLessThan(4);
  });
});

describe('migration 6 (table_rows as a rowid table)', () => {
  it('keeps every table row of a database made before it, readable in order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.jsonValue(), { maxLength: 5 }), { minLength: 1, maxLength: 4 }), (tables) => {
        const db = new Database(':memory:');
        registerSqlFunctions(db);
        migrate(db, MIGRATIONS.filter((m) => m.id < 6));
        const made = tables.map((rows, i) => new TableStore(db).create(`p/${i % 2}`, rows));
        expect(migrate(db, MIGRATIONS.filter((m) => m.id <= 6))).toEqual(['table_rows_rowid']);
        const store = new TableStore(db);
        made.forEach((t, i) => {
          const got = store.query({ project_id: `p/${i % 2}`, digest: t.digest });
          expect(got.map((r) => r.digest)).toEqual(t.row_digests);
          expect(got.map((r) => r.original_index)).toEqual(t.row_digests.map((_, j) => j));
          expect(got.map((r) => JSON.stringify(r.val))).toEqual(tables[i]!.map((r) => JSON.stringify(JSON.parse(JSON.stringify(r)))));
        });
        db.close();
      }),
      { numRuns: 50 },
    );
  });
});
