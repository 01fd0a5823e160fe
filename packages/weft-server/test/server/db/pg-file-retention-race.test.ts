// Retention racing a batch that refers to the same media file, on PostgreSQL (issue 51's follow-up), two servers on
// one database: the batch (through one) has inserted its `weft-file:` ref row but not committed while retention
// (through the other) deletes the last older call referring to the file. A trigger on `call_refs` (this test's own
// database) holds the batch's transaction open right after its refs are inserted, until the test releases an advisory
// lock; retention runs in that window. Without the files' row locks (objects/file-store.ts) retention's check misses
// the uncommitted ref and deletes the file: the new call then refers to a file gone for good (the viewer's "file not
// arrived yet" forever).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CALLS_DELETE_BEFORE_PATH, newId } from 'weft-trace/wire';
import { weftFilePath } from '../../../src/media-ref.js';
import { useTwoServers } from './two-servers.js';
import { mediaRef, storeFile, tinyPng } from 'weft-test-kit/media-files.js';
import { batch, end, endItem, type Json, post, start, startItem } from 'weft-test-kit/server-http.js';

/** The advisory lock key the trigger waits on while the test holds it. */
const PAUSE_KEY = 5151;
const PAUSE_REFS = `
  CREATE FUNCTION pause_after_refs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_advisory_xact_lock_shared(${PAUSE_KEY}); RETURN NULL; END $$;
  CREATE TRIGGER pause_after_refs AFTER INSERT ON call_refs FOR EACH STATEMENT EXECUTE FUNCTION pause_after_refs();`;

const DAY = 86_400_000;
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();
const PROJECT = 'acme/file-race';

let control: pg.Client;
/** `a` takes the batches, `b` (another server on the same database, as a second replica) runs retention. */
const servers = useTwoServers('file_race', async (url) => {
  control = new pg.Client({ connectionString: url });
  await control.connect();
  await control.query(PAUSE_REFS);
});
afterAll(() => control?.end());

/** A root call started `days` ago whose inputs hold `image`: its id and its batch items. */
function call(days: number, image: Json): { id: string; items: Json[] } {
  const id = newId();
  return {
    id,
    items: [
      startItem(start({ project_id: PROJECT, id, trace_id: newId(), started_at: ago(days), inputs: { image } })),
      endItem(end(id, { project_id: PROJECT, ended_at: ago(days), output: 'seen' })),
    ],
  };
}

/** The statements of other sessions of this database waiting for a lock (the rollup job's may be among them). */
async function waitingStatements(): Promise<string[]> {
  const rows = await control.query<{ query: string }>(`SELECT query FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`);
  return rows.rows.map((r) => r.query);
}

/** Polls until a session waits for a lock in a statement matching `statement` (true), or `settled` resolved (false); at most 10 s. */
async function waitingIn(statement: RegExp, settled: Promise<unknown>): Promise<boolean> {
  let over = false;
  void settled.then(() => (over = true), () => (over = true));
  for (const t0 = Date.now(); Date.now() - t0 < 10_000 && !over; await new Promise((r) => setTimeout(r, 20))) {
    if ((await waitingStatements()).some((q) => statement.test(q))) return true;
  }
  return false;
}

describe('retention racing a batch that refers to the same file (PostgreSQL)', () => {
  it('keeps a file an uncommitted batch refers to, and deletes it once no call does', async () => {
    const { a: server, b: other } = servers();
    const png = tinyPng(5, 5);
    const digest = await storeFile(server.url, PROJECT, png);
    const ref = mediaRef('image/png', png, digest, 'image');
    await batch(server, call(40, ref).items); // the old call retention deletes

    await control.query('SELECT pg_advisory_lock($1)', [PAUSE_KEY]);
    const fresh = call(0, ref);
    let writing: Promise<Json[]>;
    let deleting: Promise<Response>;
    try {
      writing = batch(server, fresh.items); // its refs inserted, then held before its commit
      expect(await waitingIn(/INSERT INTO call_refs/, writing)).toBe(true);
      deleting = post(other, CALLS_DELETE_BEFORE_PATH, { project_id: PROJECT, before: ago(30) });
      // fixed: retention waits for the batch's lock on the file; unfixed: it finishes at once, the file deleted
      await waitingIn(/FROM files/, deleting);
    } finally {
      await control.query('SELECT pg_advisory_unlock($1)', [PAUSE_KEY]);
    }
    expect((await writing).length).toBe(2);
    const res = await deleting;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ deleted_calls: 1, deleted_files: 0 });
    expect((await fetch(`${server.url}${weftFilePath(PROJECT, digest, 'image/png')}`)).status).toBe(200);

    // the new call deleted too: now the file goes with it
    expect((await post(server, '/calls/delete', { project_id: PROJECT, call_ids: [fresh.id] })).status).toBe(200);
    expect((await fetch(`${server.url}${weftFilePath(PROJECT, digest, 'image/png')}`)).status).toBe(404);
  }, 60_000);
});
