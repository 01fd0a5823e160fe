// PostgreSQL migrations: servers starting together on one empty database migrate it once (advisory lock).
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPgDatabase } from '../../../src/server/db/pg-database.js';
import { PG_MIGRATIONS } from '../../../src/server/db/pg-migrations.js';
import { freshPgDatabase, type FreshDatabase } from 'weft-test-kit/pg.js';

const dropped: FreshDatabase[] = [];
afterAll(async () => {
  for (const d of dropped) await d.drop();
});

describe('PostgreSQL migrations', () => {
  it('four opens at once on an empty database: exactly one applies each migration, all see the schema', async () => {
    const database = await freshPgDatabase('migr', { migrated: false });
    dropped.push(database);
    const opened = await Promise.all([1, 2, 3, 4].map(() => openPgDatabase(database.url, { maxConnections: 2 })));
    try {
      const applied = opened.map((o) => o.appliedMigrations);
      expect(applied.filter((a) => a.length > 0)).toEqual([PG_MIGRATIONS.map((m) => m.name)]);
      expect(applied.filter((a) => a.length === 0)).toHaveLength(3);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const recorded = await client.query('SELECT id, name FROM migrations ORDER BY id');
      const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`);
      await client.end();
      expect(recorded.rows).toEqual(PG_MIGRATIONS.map((m) => ({ id: m.id, name: m.name })));
      expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual([
        'call_refs', 'call_renames', 'call_rollup_claims', 'call_rollup_marks', 'call_rollup_open', 'call_rollups', 'calls', 'feedback', 'feedback_rollup_marks', 'feedback_rollups', 'files', 'migrations', 'monitors', 'objects', 'queue_items', 'queues', 'table_rows', 'tables', 'training_jobs', 'trajectories', 'users',
      ]);
    } finally {
      await Promise.all(opened.map((o) => o.close()));
    }
  });

  it('reopening a migrated database applies nothing', async () => {
    const database = await freshPgDatabase('reopen', { migrated: false });
    dropped.push(database);
    const first = await openPgDatabase(database.url);
    await first.close();
    const second = await openPgDatabase(database.url);
    await second.close();
    expect(first.appliedMigrations).toEqual(PG_MIGRATIONS.map((m) => m.name));
    expect(second.appliedMigrations).toEqual([]);
  });
});
