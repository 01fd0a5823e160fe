// @weft-test: runtime
// Tests of a file database: data and migrations survive a restart; a slow stream does not block writers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openStore } from '../../../src/server/index.js';
import { MIGRATIONS } from '../../../src/server/db/migrations.js';
import { migrate } from '../../../src/server/db/migrations.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, post, PROJECT, query, start, startItem } from 'weft-test-kit/server-http.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('file database', () => {
  it('keeps data across close and reopen, running migrations once', async () => {
    const dbPath = path.join(dir, 'weft.db');
    const first = await startTestServer({ dbPath });
    expect(first.store.appliedMigrations).toEqual(MIGRATIONS.map((m) => m.name));
    await batch(first, [startItem(start({ id: 'kept', inputs: { q: 'hi' } })), endItem(end('kept', { output: 'yo' }))]);
    await first.close();

    const second = await startTestServer({ dbPath });
    expect(second.store.appliedMigrations).toEqual([]);
    const records = await query(second);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: 'kept', inputs: { q: 'hi' }, output: 'yo', summary: { status: 'success' } });
    await second.close();

    const store = openStore(dbPath);
    expect(store.appliedMigrations).toEqual([]);
    expect(await store.countRows(PROJECT)).toBe(1);
    await store.close();
  });

  it('applies only the migrations not yet recorded, in order', () => {
    const dbPath = path.join(dir, 'm.db');
    openStore(dbPath).close();
    const db = new Database(dbPath);
    const extra = { id: MIGRATIONS.length + 1, name: 'add_note', sql: 'ALTER TABLE calls ADD COLUMN note TEXT' };
    expect(migrate(db, [...MIGRATIONS, extra])).toEqual(['add_note']);
    expect(migrate(db, [...MIGRATIONS, extra])).toEqual([]);
    const recorded = db.prepare('SELECT id, name FROM migrations ORDER BY id').all();
    expect(recorded).toEqual([...MIGRATIONS, extra].map(({ id, name }) => ({ id, name })));
    db.close();
  });

  it('serves a stream that is read slowly while writes keep landing', async () => {
    const server = await startTestServer({ dbPath: path.join(dir, 'slow.db') });
    const items = Array.from({ length: 3000 }, (_, i) => startItem(start({ id: `s-${String(i).padStart(5, '0')}`, inputs: { pad: 'p'.repeat(200) } })));
    await batch(server, items);
    const res = await post(server, '/calls/stream_query', { project_id: PROJECT });
    const reader = res.body!.getReader();
    await reader.read(); // the stream is open and has more to give
    await batch(server, [startItem(start({ id: 'during', started_at: '2030-01-01T00:00:00Z' }))]);
    let text = '';
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
    expect(text.includes('"id":"during"')).toBe(false); // the stream reads one snapshot
    expect(ids(await query(server, { filter: { call_ids: ['during'] } }))).toEqual(['during']);
    await server.close();
  });
});
