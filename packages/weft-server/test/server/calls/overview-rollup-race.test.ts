// @weft-test: postgres
// The rollup job against writes of the hour it recomputes, on both stores: a write in flight when the job starts is
// counted by it (the job waits for its commit), and a write arriving while the job holds the hour marks it again; a
// mark is never cleared over rows the rollup missed. On PostgreSQL the two really overlap (a transaction held open with
// pg_sleep); on SQLite a job's transaction runs synchronously, so the same sequence runs one after the other.
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { writeBatch } from '../../../src/server/calls/write/call-writes.js';
import { refreshHour } from '../../../src/server/calls/overview/rollup-refresh.js';
import type { Dialect } from '../../../src/server/db/dialect.js';
import { pgRunner } from '../../../src/server/db/sql-runner.js';
import { get, type Steps } from '../../../src/server/db/sql-steps.js';
import type { UpsertItem } from '../../../src/server/calls/write/call-fields.js';
import { storeParts } from '../../../src/server/server-store.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';
import { storeRows } from 'weft-test-kit/store-sql.js';

const server = useTestServer();
const HOUR = '2024-05-01T10';

/** A started and ended root of `project` in the test's hour. */
const root = (project: string, minute: number): UpsertItem[] => {
  const id = newId();
  const at = `${HOUR}:${String(minute).padStart(2, '0')}:00.000Z`;
  return [
    { mode: 'start', req: { start: { project_id: project, id, op_name: 'agent', started_at: at, attributes: {}, inputs: {} } } },
    { mode: 'end', req: { end: { project_id: project, id, ended_at: at, summary: {} } } },
  ] as UpsertItem[];
};

/** Steps that hold their transaction open `seconds` after `inner` (PostgreSQL). */
function* thenSleep<T>(inner: Steps<T>, seconds: number): Steps<T> {
  const out = yield* inner;
  yield* get(`SELECT pg_sleep(${seconds}) IS NULL AS slept`);
  return out;
}
const slowWrite = (d: Dialect, items: UpsertItem[]): Steps<unknown> => thenSleep(writeBatch(d, items), 0.6);
const slowRefresh = (d: Dialect, projectId: string, hour: string): Steps<boolean> => thenSleep(refreshHour(d, projectId, hour), 0.6);
const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Roots the overview of the test's hour counts, with its stored rollup (the hour refreshed and no write since). */
async function counted(project: string): Promise<{ rollup: number; marked: boolean; overview: number }> {
  const rows = await storeRows<{ n: number }>(server(), 'SELECT calls AS n FROM call_rollups WHERE project_id = ? AND hour = ? AND model IS NULL', [project, HOUR]);
  const marks = await storeRows(server(), 'SELECT 1 AS x FROM call_rollup_marks WHERE project_id = ? AND hour = ?', [project, HOUR]);
  const res = await post(server(), '/weft/calls/overview', { project_id: project, start: `${HOUR}:00:00.000Z`, end: '2024-05-01T11:00:00.000Z', granularity: 3600 });
  const overview = ((await res.json()) as { totals: { calls: number } }).totals.calls;
  return { rollup: rows.reduce((s, r) => s + Number(r.n), 0), marked: marks.length > 0, overview };
}

describe('the rollup job and the writes of its hour', () => {
  it('counts a write in flight when it starts (it waits for the commit), and clears the mark only then', async () => {
    const project = uniqueProject('rollup-race');
    const calls = storeParts(server().store).calls;
    await calls.upsertBatch(root(project, 1)); // the hour is marked
    const { pg } = storeParts(server().store);
    if (pg) {
      // the write marks the hour (already marked: nothing to insert) and stays uncommitted for 0.6 s
      const writing = pgRunner(pg).transaction(slowWrite, root(project, 2));
      await later(200);
      const refreshing = calls.refreshRollupHour(project, HOUR);
      await Promise.all([writing, refreshing]);
    } else {
      await calls.upsertBatch(root(project, 2));
      await calls.refreshRollupHour(project, HOUR);
    }
    expect(await counted(project)).toEqual({ rollup: 2, marked: false, overview: 2 });
  });

  it('leaves the hour marked when a write arrives while it recomputes the hour', async () => {
    const project = uniqueProject('rollup-race');
    const calls = storeParts(server().store).calls;
    await calls.upsertBatch(root(project, 1));
    const { pg } = storeParts(server().store);
    if (pg) {
      // the job holds the hour for 0.6 s after its read; the write waits for it, then marks the hour again
      const refreshing = pgRunner(pg).transaction(slowRefresh, project, HOUR);
      await later(200);
      const writing = calls.upsertBatch(root(project, 2));
      await Promise.all([refreshing, writing]);
    } else {
      await calls.refreshRollupHour(project, HOUR);
      await calls.upsertBatch(root(project, 2));
    }
    expect(await counted(project)).toEqual({ rollup: 1, marked: true, overview: 2 });
    await calls.refreshRollupHour(project, HOUR);
    expect(await counted(project)).toEqual({ rollup: 2, marked: false, overview: 2 });
  });
});
