// Several `weft serve` processes on one PostgreSQL database (issue 16, item 2 and 3): migrations once, a batch
// written through one server read through the other, start and end of one call through different servers merged,
// and a server killed (SIGKILL) mid-ingest while the other keeps serving with nothing acknowledged lost.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { PG_MIGRATIONS } from '../../../src/server/db/pg-migrations.js';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { batch, end, endItem, type Json, post, query, start, startItem } from 'weft-test-kit/server-http.js';

interface Serve {
  child: ChildProcess;
  server: RunningServer;
}

/** Starts `weft serve --db <url> --port 0` (the built CLI) and resolves once it listens. */
function serve(db: string): Promise<Serve> {
  const child = spawnCli(['serve', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, server: { url: m[1]! } as RunningServer });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`weft serve exited with ${code}: ${out}`)));
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));

let database: FreshDatabase;
let a: Serve;
let b: Serve;

beforeAll(async () => {
  database = await freshPgDatabase('multi', { migrated: false });
  // both start at once on the empty database: one migrates, the other waits on the advisory lock
  [a, b] = await Promise.all([serve(database.url), serve(database.url)]);
}, 60_000);

afterAll(async () => {
  for (const s of [a, b]) if (s) killGroup(s.child);
  await Promise.all([a, b].filter(Boolean).map((s) => exited(s.child)));
  await database?.drop();
});

describe('two weft serve processes on one PostgreSQL database', () => {
  it('started together, they applied each migration once', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const rows = (await client.query('SELECT id, name FROM migrations ORDER BY id')).rows;
    await client.end();
    expect(rows).toEqual(PG_MIGRATIONS.map((m) => ({ id: m.id, name: m.name })));
  });

  it('a batch written through one server is read through the other', async () => {
    const items = Array.from({ length: 50 }, (_, i) => startItem(start({ id: `ab-${i}`, op_name: 'written-by-a', trace_id: 'ab' })));
    await batch(a.server, items);
    const seen = await query(b.server, { filter: { trace_ids: ['ab'] } });
    expect(seen.map((r) => r['id'])).toEqual(items.map((_, i) => `ab-${i}`).sort());
  });

  it('starts through one server and ends through the other, sent concurrently, merge into one call each', async () => {
    const n = 200;
    const ids = Array.from({ length: n }, (_, i) => `m-${String(i).padStart(3, '0')}`);
    const starts = ids.map((id) => startItem(start({ id, trace_id: 'merge', op_name: 'merged', inputs: { id } })));
    const ends = ids.map((id) => endItem(end(id, { output: { done: id }, summary: { status_counts: { success: 1 } } })));
    // ends in reverse order in small batches, starts in order, both at once through different servers
    const chunks = (xs: Json[], size: number): Json[][] => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, i * size + size));
    await Promise.all([
      ...chunks(starts, 20).map((c) => batch(a.server, c)),
      ...chunks(ends.reverse(), 7).map((c) => batch(b.server, c)),
    ]);
    for (const reader of [a, b]) {
      const records = await query(reader.server, { filter: { trace_ids: ['merge'] } });
      expect(records.map((r) => r['id'])).toEqual(ids);
      for (const r of records) {
        expect(r['inputs']).toEqual({ id: r['id'] });
        expect(r['output']).toEqual({ done: r['id'] });
        expect((r['summary'] as Json)['status']).toBe('success');
      }
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const count = (await client.query(`SELECT count(*)::int AS n FROM calls WHERE trace_id = 'merge'`)).rows[0] as { n: number };
    await client.end();
    expect(count.n).toBe(n);
  });

  it('SIGKILL of one server mid-ingest: the other keeps serving, every acknowledged call is stored', async () => {
    const acknowledged: string[] = [];
    let failed = 0;
    let next = 0;
    let killed = false;
    const writer = async (target: () => Serve, rounds: number): Promise<void> => {
      for (let r = 0; r < rounds; r++) {
        const ids = Array.from({ length: 10 }, () => `k-${String(next++).padStart(5, '0')}`);
        const items = ids.flatMap((id) => [startItem(start({ id, trace_id: 'kill' })), endItem(end(id))]);
        try {
          const res = await post(target().server, '/call/upsert_batch', { batch: items });
          if (res.status === 200) acknowledged.push(...ids);
        } catch {
          failed++; // the killed server's connection failed: not acknowledged, may or may not be stored
        }
      }
    };
    const writers = [writer(() => a, 40), writer(() => b, 40), writer(() => (killed ? b : a), 40)];
    // kill once some batches were acknowledged, while all three writers are still sending
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 5));
    killGroup(a.child, 'SIGKILL');
    killed = true;
    await exited(a.child);
    await Promise.all(writers);
    const stored = new Set((await query(b.server, { filter: { trace_ids: ['kill'] } })).map((r) => r['id']));
    expect(failed).toBeGreaterThan(0); // the kill did land mid-ingest
    expect(acknowledged.length).toBeGreaterThan(60);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // and the survivor still takes writes
    await batch(b.server, [startItem(start({ id: 'after-kill', trace_id: 'kill' }))]);
    expect((await query(b.server, { filter: { call_ids: ['after-kill'] } })).length).toBe(1);
  }, 60_000);
});
