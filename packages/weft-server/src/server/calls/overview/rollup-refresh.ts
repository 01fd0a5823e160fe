/**
 * The rollup job's steps, written once for both engines: the stale hours (marked by writes, rollup-marks.ts, and claims
 * left past their lease), and one hour's rollup recomputed in three short parts so that no part holds the database or,
 * on SQLite, the event loop for a whole hour (calls/jobs/rollup-job.ts runs them, each taking its turn with the writes):
 *
 * 1. {@link claimHour}: the hour's mark moves to `call_rollup_claims` with a token (db/rollup-claim-migrations.ts).
 *    Readers count a claimed hour live, as a marked one; a write that changes the hour from now on marks it again.
 * 2. {@link hourSlice}, repeated: the next slice of the hour's roots in key order (overview-sql.ts), counted by the
 *    overview's own live statements (overview-sql.ts); the job adds the slices' pieces up.
 * 3. {@link storeHour}: the hour's rollup stored in place of the old and the claim deleted, only if the claim still
 *    holds the token (another server did not take it over). A mark set meanwhile stays: the hour is read live until
 *    the job recomputes it again.
 *
 * Why no write is missed. PostgreSQL: the claim takes the hour's advisory lock exclusively, so the writes of the hour
 * in flight commit before it (the slices, each a statement of its own under READ COMMITTED, see them), and those after
 * it find no mark and insert one. SQLite: one process, each part synchronous; the claim empties the hour's
 * `call_rollup_open` and each slice lists its own running roots there in the same turn as it reads them, so the end of
 * a root the job read as running, written alone later, marks the hour again (sqlite-call-flush.ts); every other write
 * of a root marks its hour.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, get, insert, run, type Steps } from '../../db/sql-steps.js';
import { type Piece, histogramOf, piecesOf } from './overview-pieces.js';
import { HOUR_MS } from './overview-plan.js';
import { KEY_ORDER, type RootKey, rootFigures, rootsWhere, rootUsage } from './overview-sql.js';
import { HOUR_LOCK_SPACE, hourLockKey } from '../write/rollup-marks.js';
import { histogramText } from '../../stats/latency-histogram.js';
import { type StaleHour, staleHoursIn } from '../../db/stale-hours.js';

export type { StaleHour };

/**
 * The oldest stale hours before `beforeHour` (the hour in progress is left: writes keep marking it), at most `limit`:
 * the marked ones, then (when fewer) the claims taken before `expiredBefore` (normalized ISO; a server stopped or
 * crashed while it held them).
 */
export function* staleHours(_: Dialect, beforeHour: string, limit: number, expiredBefore: string): Steps<StaleHour[]> {
  const marked = yield* staleHoursIn('call_rollup_marks', beforeHour, limit);
  if (marked.length >= limit) return marked;
  const left = yield* all<{ project_id: string; hour: string }>(`SELECT project_id, hour FROM call_rollup_claims
    WHERE hour < ? AND claimed_at < ? ORDER BY hour, project_id LIMIT ?`, [beforeHour, expiredBefore, limit - marked.length]);
  return [...marked, ...left.map((r) => ({ projectId: r.project_id, hour: r.hour }))];
}

/** The `[start, end)` of an hour key, epoch ms. */
const hourRange = (hour: string): [number, number] => {
  const startMs = Date.parse(`${hour}:00:00.000Z`);
  return [startMs, startMs + HOUR_MS];
};

/**
 * Claims a stale hour for a refresh, in one transaction: its mark deleted and a claim stored with `token` (a claim of
 * another refresh is taken over only when taken before `expiredBefore`); on SQLite its `call_rollup_open` emptied
 * (each slice lists its running roots again). On PostgreSQL it first takes the hour's advisory lock exclusively:
 * writes of the hour in flight commit before it.
 * @returns false when the hour was neither marked nor claimed long enough ago (another server refreshed it or is).
 */
export function* claimHour(d: Dialect, projectId: string, hour: string, token: string, nowIso: string, expiredBefore: string): Steps<boolean> {
  if (d.engine === 'postgres') yield* get(`SELECT pg_advisory_xact_lock(${HOUR_LOCK_SPACE}, ${hourLockKey('?::text', '?::text')})`, [projectId, hour]);
  const marked = (yield* run('DELETE FROM call_rollup_marks WHERE project_id = ? AND hour = ?', [projectId, hour])) > 0;
  if (!marked) {
    const claim = yield* get<{ claimed_at: string }>('SELECT claimed_at FROM call_rollup_claims WHERE project_id = ? AND hour = ?', [projectId, hour]);
    if (claim === undefined || claim.claimed_at >= expiredBefore) return false;
  }
  yield* run(`INSERT INTO call_rollup_claims (project_id, hour, token, claimed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (project_id, hour) DO UPDATE SET token = excluded.token, claimed_at = excluded.claimed_at`, [projectId, hour, token, nowIso]);
  if (d.engine === 'sqlite') yield* run('DELETE FROM call_rollup_open WHERE project_id = ? AND hour = ?', [projectId, hour]);
  return true;
}

/**
 * Roots counted per slice by default, per engine: on SQLite about 10-20 ms of the event loop (the overview's statements
 * cost 10-15 µs a root, split by model; docs/scale.md); on PostgreSQL about 25 ms of a backend's CPU on a quiet machine
 * (a slice costs it about 0.1 ms a root: an hour of 1,389 roots took 134 ms, docs/scale.md), so that a part of the job
 * stays under 100 ms while the reads and writes share the CPU with it.
 */
export const ROLLUP_SLICE_ROOTS: Readonly<Record<Dialect['engine'], number>> = { sqlite: 1_000, postgres: 250 };

/** One slice of an hour: its pieces, and the key of its last root (null: the hour's last slice). */
export interface HourSlice {
  pieces: Piece[];
  last: RootKey | null;
}

/**
 * The next slice of an hour's roots after the key `after` (from the hour's start when null): at most `limit` roots
 * (default: the engine's {@link ROLLUP_SLICE_ROOTS}), counted per op and model (bucket 0). On SQLite, its running roots are listed in `call_rollup_open` in the same turn.
 */
export function* hourSlice(d: Dialect, projectId: string, hour: string, after: RootKey | null, limit = ROLLUP_SLICE_ROOTS[d.engine]): Steps<HourSlice> {
  const [startMs, endMs] = hourRange(hour);
  const lo = after?.[0] ?? new Date(startMs).toISOString();
  const hi = new Date(endMs).toISOString();
  const end = yield* get<{ started_at: string; id: string }>(`SELECT calls.started_at, calls.id FROM calls WHERE ${rootsWhere(after !== null, false)}
    ORDER BY ${KEY_ORDER} LIMIT 1 OFFSET ?`, [projectId, lo, hi, ...(after ?? []), limit - 1]);
  const through: RootKey | null = end ? [end.started_at, end.id] : null;
  const q = { projectId, ranges: [[startMs, endMs]] as [number, number][], edges: [startMs, endMs], withModels: true, slice: { after, through } };
  const pieces = piecesOf(yield* rootFigures(d, q), yield* rootUsage(d, q));
  // SQLite: the roots still running, whose end written alone must mark the hour again (sqlite-call-flush.ts; PostgreSQL's
  // upsert marks the hour of every root it writes)
  if (d.engine === 'sqlite') {
    yield* run(`INSERT OR IGNORE INTO call_rollup_open (project_id, id, hour) SELECT calls.project_id, calls.id, ? FROM calls
      WHERE ${rootsWhere(after !== null, through !== null)} AND calls.ended_at IS NULL`,
    [hour, projectId, lo, through?.[0] ?? hi, ...(after ?? []), ...(through ?? [])]);
  }
  return { pieces, last: through };
}

/**
 * Stores an hour's rollup rows in place of the old and deletes its claim, in one transaction, if the claim still holds
 * `token`. A mark set since the claim stays.
 * @returns false when the claim was taken over (nothing stored).
 */
export function* storeHour(_: Dialect, projectId: string, hour: string, token: string, pieces: readonly Piece[]): Steps<boolean> {
  if ((yield* run('DELETE FROM call_rollup_claims WHERE project_id = ? AND hour = ? AND token = ?', [projectId, hour, token])) === 0) return false;
  yield* run('DELETE FROM call_rollups WHERE project_id = ? AND hour = ?', [projectId, hour]);
  if (pieces.length > 0) {
    yield* insert({
      table: 'call_rollups',
      fixed: { project_id: ['text', projectId], hour: ['text', hour] },
      columns: { op_name: 'text', model: 'text', calls: 'int', errors: 'int', descendant_errors: 'int', histogram: 'text', usage: 'text' },
      rows: pieces.map((p) => [p.op, p.model, p.calls, p.errors, p.descendantErrors, histogramText(histogramOf(p)), p.usage ? JSON.stringify(p.usage) : null]),
    });
  }
  return true;
}

/** Gives a claim back (a refresh stopped or failed part way), in one transaction: the claim deleted, the hour marked. */
export function* releaseHour(_: Dialect, projectId: string, hour: string, token: string): Steps<void> {
  if ((yield* run('DELETE FROM call_rollup_claims WHERE project_id = ? AND hour = ? AND token = ?', [projectId, hour, token])) === 0) return;
  yield* run('INSERT INTO call_rollup_marks (project_id, hour) VALUES (?, ?) ON CONFLICT DO NOTHING', [projectId, hour]);
}
