// @weft-test: postgres
// Issue 11 item 6: while a client reads a long stream_query as fast as it can, a small write is answered before the stream ends.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/server/index.js';
import { openPgDatabase } from '../../../src/server/db/pg-database.js';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { testStore } from 'weft-test-kit/test-store.js';
import { storeParts } from '../../../src/server/server-store.js';

const CALLS = 20_000;
const PROJECT = 'fair/stream';

let dir = '';
let child: ChildProcess | undefined;
let url = '';
let database: FreshDatabase | undefined;

/** Writes `CALLS` complete calls straight into a migrated file database (seconds faster than over HTTP). */
function seed(dbPath: string): void {
  const store = openStore(dbPath);
  const insert = storeParts(store).sqlite!.prepare(`INSERT INTO calls (project_id, id, op_name, trace_id, started_at, ended_at, attributes, inputs, output, summary)
    VALUES (?, ?, 'f', ?, ?, ?, '{}', ?, '1', '{}')`);
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  storeParts(store).sqlite!.transaction(() => {
    for (let i = 0; i < CALLS; i++) {
      const id = `call-${String(i).padStart(6, '0')}`;
      const at = new Date(t0 + i).toISOString();
      insert.run(PROJECT, id, id, at, at, JSON.stringify({ i, text: 'x'.repeat(100) }));
    }
  })();
  store.close();
}

/** The same calls, written by SQL into a migrated PostgreSQL database. */
async function seedPg(url: string): Promise<void> {
  const db = await openPgDatabase(url);
  await db.pool.query(`INSERT INTO calls (project_id, id, op_name, trace_id, started_at, ended_at, attributes, inputs, output, summary)
    SELECT $1, id, 'f', id, at, at, '{}', json_build_object('i', i, 'text', repeat('x', 100))::text::json, '1', '{}'
    FROM (SELECT i, 'call-' || lpad(i::text, 6, '0') AS id,
      to_char((timestamptz '2026-11-01T00:00:00Z' + i * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM generate_series(0, $2::int - 1) AS i) s`, [PROJECT, CALLS]);
  await db.close();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-fair-'));
  let dbPath = path.join(dir, 'calls.db');
  if (testStore() === 'postgres') {
    database = await freshPgDatabase('fair');
    dbPath = database.url;
    await seedPg(dbPath);
  } else {
    seed(dbPath);
  }
  // The server runs in its own process (the built CLI), so this test's client is not on its event loop.
  child = spawnCli(['serve', '--port', '0', '--db', dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child!.once('exit', (code) => reject(new Error(`weft serve exited with ${code}: ${out}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child) killGroup(child);
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

describe('a long stream_query read at full speed', () => {
  it('lets a small upsert_batch be answered before the stream ends', async () => {
    let streamed = 0;
    let streamedWhenAnswered: number | undefined;
    const res = await request(`${url}/calls/stream_query`, {
      method: 'POST', body: JSON.stringify({ project_id: PROJECT }), headers: { 'content-type': 'application/json', accept: 'application/jsonl' },
    });
    expect(res.statusCode).toBe(200);
    let write: Promise<void> | undefined;
    for await (const chunk of res.body) {
      for (const byte of chunk as Buffer) if (byte === 10) streamed++;
      // Sent once the stream is under way; the stream is read on at full speed meanwhile.
      write ??= (async () => {
        const body = { batch: [{ mode: 'start', req: { start: { project_id: 'fair/write', id: 'w1', op_name: 'g', started_at: new Date().toISOString(), inputs: {}, attributes: {} } } }] };
        const answer = await request(`${url}/call/upsert_batch`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        await answer.body.dump();
        expect(answer.statusCode).toBe(200);
        streamedWhenAnswered = streamed;
      })();
    }
    await write;
    expect(streamed).toBe(CALLS);
    // Ordering, not milliseconds: the write was answered while most records were still to come (before the
    // fix it was answered after the last one: the stream held the server's event loop until it ended).
    expect(streamedWhenAnswered).toBeLessThan(CALLS / 2);
  }, 60_000);
});
