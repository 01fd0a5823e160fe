/**
 * The bound on what an overview counts live for its stale hours (marked by writes, or claimed by the rollup job): while
 * the job catches up (after a bulk import, an upgrade's backfill, a restart part way), the stale hours of a window may
 * hold every root of it. The overview counts them live newest first, up to {@link LIVE_ROOTS} roots; the older stale
 * hours are left out (pending) and the route says so (`x-weft-overview-source`, overview-route.ts). The job refreshes
 * oldest first, so the two meet.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { get, type Steps } from '../../db/sql-steps.js';
import { hourAt } from '../write/rollup-marks.js';
import { HOUR_MS } from './overview-plan.js';
import { rootsWhere } from './overview-sql.js';

/**
 * Roots of stale hours an overview counts live at most, by default, per engine: about 0.3 s of counting on a quiet
 * machine (docs/scale.md: the split by model costs SQLite 10-15 µs a root, PostgreSQL about 3-4 times that).
 */
export const LIVE_ROOTS: Readonly<Record<Dialect['engine'], number>> = { sqlite: 20_000, postgres: 8_000 };

/** The window's whole stale hours in runs of consecutive hours, `[startMs, endMs)`, newest first. */
export function staleRuns(startMs: number, endMs: number, stale: ReadonlySet<string>): [number, number][] {
  const runs: [number, number][] = [];
  for (let h = Math.floor((endMs - HOUR_MS) / HOUR_MS) * HOUR_MS; h >= startMs; h -= HOUR_MS) {
    if (!stale.has(hourAt(h))) continue;
    const last = runs.at(-1);
    if (last && last[0] === h + HOUR_MS) last[0] = h;
    else runs.push([h, h + HOUR_MS]);
  }
  return runs;
}

/**
 * Where live counting of stale hours stops: the hour from which the stale hours of `runs` (newest first) hold at most
 * `budget` roots. Reads at most about `2 x budget` entries of the roots index (a count bounded by LIMIT per run, and
 * one OFFSET probe in the run where the budget runs out), whatever the window holds.
 * @returns the cut (epoch ms, on an hour: stale hours before it are left out), or null when every stale hour fits.
 */
export function* liveCut(_: Dialect, projectId: string, runs: readonly (readonly [number, number])[], budget: number): Steps<number | null> {
  let left = budget;
  for (const [a, z] of runs) {
    const params = [projectId, new Date(a).toISOString(), new Date(z).toISOString()];
    const n = Number((yield* get<{ n: number | string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM calls WHERE ${rootsWhere(false, false)} LIMIT ?) s`, [...params, left + 1]))!.n);
    if (n <= left) {
      left -= n;
      continue;
    }
    // the newest root that does not fit: the hours after its own hold at most `left` roots of this run
    const over = yield* get<{ started_at: string }>(`SELECT calls.started_at FROM calls WHERE ${rootsWhere(false, false)}
      ORDER BY calls.started_at DESC LIMIT 1 OFFSET ?`, [...params, left]);
    // (undefined: the run lost roots meanwhile, PostgreSQL; then it all fits)
    return over === undefined ? null : Math.floor(Date.parse(over.started_at) / HOUR_MS) * HOUR_MS + HOUR_MS;
  }
  return null;
}
