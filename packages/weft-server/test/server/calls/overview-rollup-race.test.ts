// @weft-test: postgres
// The rollup job against writes of the hour it recomputes in slices, on both stores: a write in flight when the job
// claims the hour is counted by it (the claim waits for its commit); a write landing between two slices, behind the
// job's cursor, or the end of a root the job read as running, marks the hour again, so the overview keeps counting
// the hour live until the job recomputes it; a refresh stopped part way gives its claim back; a claim left by a server
// that stopped is taken over after its lease, and the refresh that lost it stores nothing. On PostgreSQL the in-flight
// write really overlaps the claim (a transaction held open with pg_sleep).
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { writeBatch } from '../../../src/server/calls/write/call-writes.js';
import { CLAIM_LEASE_MS, refreshRollupHour, refreshStaleHours } from '../../../src/server/calls/jobs/rollup-job.js';
import { callTurns } from '../../../src/server/calls/call-turns.js';
import type { CallStore } from '../../../src/server/calls/call-store.js';
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
const NOW = new Date('2024-05-02T00:00:00.000Z');
const at = (minute: number): string => `${HOUR}:${String(minute).padStart(2, '0')}:00.000Z`;

/** A root of `project` in the test's hour: started, and ended (failed with `error`) unless `running`. */
const root = (project: string, minute: number, { running = false, error = false, id = newId() } = {}): UpsertItem[] => [
  { mode: 'start', req: { start: { project_id: project, id, op_name: 'agent', started_at: at(minute), attributes: {}, inputs: {} } } },
  ...(running ? [] : [end(project, id, minute, error)]),
] as UpsertItem[];
const end = (project: string, id: string, minute: number, error: boolean): UpsertItem =>
  ({ mode: 'end', req: { end: { project_id: project, id, ended_at: at(minute), summary: {}, ...(error ? { exception: 'boom' } : {}) } } }) as UpsertItem;

/** Steps that hold their transaction open `seconds` after `inner` (PostgreSQL). */
function* thenSleep<T>(inner: Steps<T>, seconds: number): Steps<T> {
  const out = yield* inner;
  yield* get(`SELECT pg_sleep(${seconds}) IS NULL AS slept`);
  return out;
}
const slowWrite = (d: Dialect, items: UpsertItem[]): Steps<unknown> => thenSleep(writeBatch(d, items), 0.6);
const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const callsOf = (): CallStore => storeParts(server().store).calls;

/** What the overview of the test's hour counts, its stored rollup, and whether the hour is marked or claimed. */
async function counted(project: string): Promise<{ rollup: number; marked: boolean; claimed: boolean; overview: number; errors: number }> {
  const rows = await storeRows<{ n: number }>(server(), 'SELECT calls AS n FROM call_rollups WHERE project_id = ? AND hour = ? AND model IS NULL', [project, HOUR]);
  const marks = await storeRows(server(), 'SELECT 1 AS x FROM call_rollup_marks WHERE project_id = ? AND hour = ?', [project, HOUR]);
  const claims = await storeRows(server(), 'SELECT 1 AS x FROM call_rollup_claims WHERE project_id = ? AND hour = ?', [project, HOUR]);
  const res = await post(server(), '/weft/calls/overview', { project_id: project, start: at(0), end: '2024-05-01T11:00:00.000Z', granularity: 3600 });
  const { totals } = (await res.json()) as { totals: { calls: number; errors: number } };
  return { rollup: rows.reduce((s, r) => s + Number(r.n), 0), marked: marks.length > 0, claimed: claims.length > 0, overview: totals.calls, errors: totals.errors };
}

/** Runs `between` (a write) once, after the `n`-th slice of a refresh, in that slice's turn. */
function afterSlice(calls: CallStore, n: number, between: () => unknown): () => void {
  const slice = calls.rollupHourSlice.bind(calls);
  let seen = 0;
  calls.rollupHourSlice = ((...args: Parameters<CallStore['rollupHourSlice']>) => {
    const out = slice(...args);
    if (++seen !== n) return out;
    return out instanceof Promise ? out.then(async (v) => (await between(), v)) : (between(), out);
  }) as CallStore['rollupHourSlice'];
  return () => {
    calls.rollupHourSlice = slice;
  };
}

describe('the rollup job and the writes of its hour', () => {
  it('counts a write in flight when it claims the hour (it waits for the commit)', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    await calls.upsertBatch(root(project, 1)); // the hour is marked
    const { pg } = storeParts(server().store);
    if (pg) {
      // the write marks the hour (already marked: nothing to insert) and stays uncommitted for 0.6 s
      const writing = pgRunner(pg).transaction(slowWrite, root(project, 2));
      await later(200);
      const refreshing = refreshRollupHour(calls, project, HOUR, NOW);
      await Promise.all([writing, refreshing]);
    } else {
      await calls.upsertBatch(root(project, 2));
      await refreshRollupHour(calls, project, HOUR, NOW);
    }
    expect(await counted(project)).toEqual({ rollup: 2, marked: false, claimed: false, overview: 2, errors: 0 });
  });

  it('leaves the hour stale when a write lands behind its cursor between two slices', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    await calls.upsertBatch([...root(project, 10), ...root(project, 20), ...root(project, 30)]);
    // after the first slice (minute 10), a root at minute 5: no later slice reads it
    const restore = afterSlice(calls, 1, () => calls.upsertBatch(root(project, 5, { error: true })));
    try {
      expect(await refreshRollupHour(calls, project, HOUR, NOW, { sliceRoots: 1 })).toBe(true);
    } finally {
      restore();
    }
    expect(await counted(project)).toEqual({ rollup: 3, marked: true, claimed: false, overview: 4, errors: 1 });
    expect(await refreshRollupHour(calls, project, HOUR, NOW, { sliceRoots: 1 })).toBe(true);
    expect(await counted(project)).toEqual({ rollup: 4, marked: false, claimed: false, overview: 4, errors: 1 });
  });

  it('marks the hour again when a root it read as running ends, written alone, before it stores the hour', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    const id = newId();
    await calls.upsertBatch([...root(project, 10, { running: true, id }), ...root(project, 20)]);
    await refreshRollupHour(calls, project, HOUR, NOW, { sliceRoots: 1 }); // the running root is listed as open
    await calls.upsertBatch(root(project, 40)); // the hour is marked again
    const restore = afterSlice(calls, 1, () => calls.upsertBatch([end(project, id, 50, true)]));
    try {
      expect(await refreshRollupHour(calls, project, HOUR, NOW, { sliceRoots: 1 })).toBe(true);
    } finally {
      restore();
    }
    expect(await counted(project)).toEqual({ rollup: 3, marked: true, claimed: false, overview: 3, errors: 1 });
    await refreshRollupHour(calls, project, HOUR, NOW);
    expect(await counted(project)).toEqual({ rollup: 3, marked: false, claimed: false, overview: 3, errors: 1 });
  });

  it('gives its claim back when stopped part way, and takes a claim left behind over only after the lease', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    await calls.upsertBatch([...root(project, 10), ...root(project, 20)]);
    let slices = 0;
    const restore = afterSlice(calls, 1, () => (slices += 1));
    try {
      expect(await refreshRollupHour(calls, project, HOUR, NOW, { sliceRoots: 1, stopped: () => slices > 0 })).toBe(false);
    } finally {
      restore();
    }
    expect(await counted(project)).toEqual({ rollup: 0, marked: true, claimed: false, overview: 2, errors: 0 });
    // a server claims the hour and stops without storing or giving it back
    expect(await calls.claimRollupHour(project, HOUR, 'gone', NOW.toISOString(), new Date(NOW.getTime() - CLAIM_LEASE_MS).toISOString())).toBe(true);
    expect(await counted(project)).toEqual({ rollup: 0, marked: false, claimed: true, overview: 2, errors: 0 });
    const only = async (now: Date): Promise<number> => (await calls.staleRollupHours('2024-05-02T00', 1000, new Date(now.getTime() - CLAIM_LEASE_MS).toISOString()))
      .filter((h) => h.projectId === project).length;
    expect(await only(new Date(NOW.getTime() + CLAIM_LEASE_MS - 1000))).toBe(0);
    expect(await refreshRollupHour(calls, project, HOUR, new Date(NOW.getTime() + 1000))).toBe(false);
    const after = new Date(NOW.getTime() + CLAIM_LEASE_MS + 1000);
    expect(await only(after)).toBe(1);
    expect(await refreshRollupHour(calls, project, HOUR, after)).toBe(true);
    expect(await calls.storeRollupHour(project, HOUR, 'gone', [])).toBe(false); // the lost claim stores nothing
    expect(await counted(project)).toEqual({ rollup: 2, marked: false, claimed: false, overview: 2, errors: 0 });
  });

  it('counts 1,000 roots a slice by default on SQLite and 250 on PostgreSQL (the CPU it shares with writes and reads)', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    await calls.upsertBatch(Array.from({ length: 300 }, (_, i) => root(project, i % 60)).flat());
    const first = await calls.rollupHourSlice(project, HOUR, null);
    const roots = first.pieces.filter((p) => p.model === null).reduce((s, p) => s + p.calls, 0);
    expect({ roots, more: first.last !== null }).toEqual(storeParts(server().store).pg ? { roots: 250, more: true } : { roots: 300, more: false });
  });

  it('takes turns with the writes: a write queued while it refreshes an hour of several slices is done before it is', async () => {
    const project = uniqueProject('rollup-race');
    const calls = callsOf();
    const turns = callTurns(calls);
    await calls.upsertBatch([1, 2, 3, 4, 5, 6].flatMap((m) => root(project, m)));
    const order: string[] = [];
    // the write is queued in the claim's turn: behind the claim, ahead of the hour's slices
    const claim = calls.claimRollupHour.bind(calls);
    let writing: Promise<unknown> | undefined;
    calls.claimRollupHour = ((...args: Parameters<CallStore['claimRollupHour']>) => {
      writing ??= turns.run(() => calls.upsertBatch(root(uniqueProject('rollup-race'), 1))).then(() => order.push('write'));
      return claim(...args);
    }) as CallStore['claimRollupHour'];
    try {
      await refreshStaleHours(calls, NOW, { sliceRoots: 2 }).then(() => order.push('job'));
    } finally {
      calls.claimRollupHour = claim;
    }
    await writing;
    expect(order).toEqual(['write', 'job']);
    expect(await counted(project)).toEqual({ rollup: 6, marked: false, claimed: false, overview: 6, errors: 0 });
  });
});
