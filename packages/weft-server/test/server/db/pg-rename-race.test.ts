// Two servers on one PostgreSQL database (issue 16, item 3): a `/call/update` rename through one server racing its
// call's start through the other must leave the call renamed and no rename pending. Without a lock shared by the two
// paths, each transaction misses the other's uncommitted row (the rename finds no started call and is kept pending;
// the start finds no pending rename), and the rename stays pending forever.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.js';
import { batch, type Json, post, PROJECT, query, start, startItem } from 'weft-test-kit/server-http.js';

const servers = useTwoServers('race');

describe('a rename through one server racing its start through another', () => {
  it('always ends renamed, with no rename left pending (150 races)', async () => {
    const { a, b, url } = servers();
    const rounds = 15;
    const perRound = 10;
    for (let round = 0; round < rounds; round++) {
      const ids = Array.from({ length: perRound }, (_, i) => `r-${String(round).padStart(3, '0')}-${i}`);
      const renames = ids.map(async (id) => {
        const res = await post(b, '/call/update', { project_id: PROJECT, call_id: id, display_name: `renamed ${id}` });
        expect(res.status).toBe(200);
      });
      // each start alone in its batch, sent at the same moment as its rename
      const starts = ids.map((id) => batch(a, [startItem(start({ id, trace_id: 'race', display_name: 'started' }))]));
      await Promise.all([...renames, ...starts]);
    }
    const records = await query(b, { filter: { trace_ids: ['race'] } });
    expect(records.length).toBe(rounds * perRound);
    const notRenamed = records.filter((r: Json) => r['display_name'] !== `renamed ${String(r['id'])}`).map((r) => r['id']);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const pending = (await client.query('SELECT call_id FROM call_renames ORDER BY call_id')).rows.map((r: { call_id: string }) => r.call_id);
    await client.end();
    expect({ notRenamed, pending }).toEqual({ notRenamed: [], pending: [] });
  }, 120_000);
});
