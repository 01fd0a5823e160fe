// Issue 11 item 5: the table_rows layout of migration 6 keeps earlier rows (the create time after a huge row, that
// layout's reason, is measured by bench/hostile-figures.ts, section `hostile-figures` of `npm run bench`).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../src/server/db/migrations.js';
import { registerSqlFunctions } from '../../../src/server/db/sql-functions.js';
import { sqliteRunner } from '../../../src/server/db/sql-runner.js';
import { TableStore } from '../../../src/server/tables/table-store.js';

describe('migration 6 (table_rows as a rowid table)', () => {
  it('keeps every table row of a database made before it, readable in order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.jsonValue(), { maxLength: 5 }), { minLength: 1, maxLength: 4 }), (tables) => {
        const db = new Database(':memory:');
        registerSqlFunctions(db);
        migrate(db, MIGRATIONS.filter((m) => m.id < 6));
        const made = tables.map((rows, i) => new TableStore(sqliteRunner(db)).create(`p/${i % 2}`, rows));
        expect(migrate(db, MIGRATIONS.filter((m) => m.id <= 6))).toEqual(['table_rows_rowid']);
        const store = new TableStore(sqliteRunner(db));
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
