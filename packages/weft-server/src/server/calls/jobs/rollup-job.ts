/**
 * The server's rollup job (on in `weft serve`): at start and then every interval, recomputes the overview's stale hour
 * rollups (marked by writes, rollup-marks.ts), oldest first, each hour in slices (calls/overview/rollup-refresh.ts):
 * claimed, its roots counted `ROLLUP_SLICE_ROOTS` of the engine at a time (rollup-refresh.ts), stored; each part a turn
 * of its own with the writes (calls/call-turns.ts), so on SQLite no write or read waits behind more than one slice. On
 * PostgreSQL a part's turn ends once its statements are sent (they run off the event loop, and the hour's advisory lock,
 * not the turn, orders the job and the writes): what a write shares with the job there is the database's CPU, which a
 * slice holds for about as long as it counts roots, hence its smaller slices. The overview is exact whatever the job has
 * done (stale and claimed hours are counted live); the job only makes it fast.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { CallStore } from '../call-store.js';
import { callTurns } from '../call-turns.js';
import { HOUR_MS } from '../overview/overview-plan.js';
import { mergePieces, type Piece } from '../overview/overview-pieces.js';
import type { RootKey } from '../overview/overview-sql.js';
import { hourAt } from '../write/rollup-marks.js';
import { type PeriodicJob, startPeriodicJob } from './periodic-job.js';

/** How often the job looks for stale hours after its first run at start: every 30 s. */
export const ROLLUP_INTERVAL_MS = 30_000;

/** A claim older than this was left by a server that stopped or crashed while it held it: it is taken again. */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** Stale hours read per query. */
const PAGE = 100;

/** Options of {@link startRollupJob}. */
export interface RollupJobOptions {
  /** Milliseconds between runs (min 1). @defaultValue 30 s ({@link ROLLUP_INTERVAL_MS}) */
  intervalMs?: number;
  /** Receives a line per failed run. */
  log: (line: string) => void;
  /** The server clock: the hour in progress is left stale. @defaultValue `() => new Date()` */
  now?: () => Date;
  /**
   * Roots of stale hours an overview counts live at most while the job runs (a positive integer; the older stale hours
   * are left out: overview/overview-live-bound.ts). Smaller only for tests, which then need fewer roots to pass it.
   * @defaultValue the engine's `LIVE_ROOTS` (20,000 on SQLite, 8,000 on PostgreSQL)
   */
  liveRoots?: number;
}

/** A running rollup job: `runNow()` answers how many hours it refreshed; `stop()` waits for the run to end at its next slice. */
export type RollupJob = PeriodicJob<number>;

/** How {@link refreshRollupHour} and {@link refreshStaleHours} run. */
export interface RefreshOptions {
  /** Roots per slice (a positive integer). @defaultValue the engine's `ROLLUP_SLICE_ROOTS` (1,000 on SQLite, 250 on PostgreSQL) */
  sliceRoots?: number;
  /** Turns true to stop: the hour in progress is given back (marked stale again). */
  stopped?: () => boolean;
}

/**
 * Recomputes one stale hour: claimed, counted a slice at a time, stored, each part a turn with the writes.
 * @param now - the job's clock (the claim's time, and which claims are old enough to take over).
 * @returns whether its rollup was stored (false: not stale, taken over by another server, or stopped part way).
 * @throws what the store throws; the claim is given back first.
 */
export async function refreshRollupHour(calls: CallStore, projectId: string, hour: string, now: Date, options: RefreshOptions = {}): Promise<boolean> {
  const { sliceRoots, stopped = () => false } = options;
  const turns = callTurns(calls);
  const token = randomUUID();
  const expired = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  if (!(await turns.run(() => calls.claimRollupHour(projectId, hour, token, now.toISOString(), expired)))) return false;
  try {
    const pieces = new Map<string, Piece>();
    let after: RootKey | null = null;
    do {
      if (stopped()) {
        await turns.run(() => calls.releaseRollupHour(projectId, hour, token));
        return false;
      }
      const slice = await turns.run(() => calls.rollupHourSlice(projectId, hour, after, sliceRoots));
      mergePieces(pieces, slice.pieces);
      after = slice.last;
    } while (after !== null);
    return await turns.run(() => calls.storeRollupHour(projectId, hour, token, [...pieces.values()]));
  } catch (err) {
    await Promise.resolve(turns.run(() => calls.releaseRollupHour(projectId, hour, token))).catch(() => undefined);
    throw err;
  }
}

/**
 * Refreshes the stale hours before the hour in progress, until none is left or `stopped()`.
 * @returns how many hours it refreshed.
 */
export async function refreshStaleHours(calls: CallStore, now: Date, options: RefreshOptions = {}): Promise<number> {
  const { stopped = () => false } = options;
  const before = hourAt(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const expired = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  let refreshed = 0;
  for (;;) {
    const page = await calls.staleRollupHours(before, PAGE, expired);
    for (const { projectId, hour } of page) {
      if (stopped()) return refreshed;
      if (await refreshRollupHour(calls, projectId, hour, now, options)) refreshed += 1;
    }
    if (page.length < PAGE) return refreshed;
  }
}

/**
 * Starts the job: a first run at once, then one every `intervalMs` (the timer does not keep the process alive). A run
 * that fails is logged and the next one tries again; nothing is thrown into the server. While it runs, the overview
 * counts stale hours live only up to a bound (`CallStore.defaultLiveRoots`).
 * @throws TypeError when `intervalMs` or `liveRoots` is not a positive integer.
 */
export function startRollupJob(calls: CallStore, options: RollupJobOptions): RollupJob {
  const { intervalMs = ROLLUP_INTERVAL_MS, log, now = () => new Date(), liveRoots } = options;
  if (liveRoots !== undefined && !(Number.isInteger(liveRoots) && liveRoots > 0)) throw new TypeError(`overview rollup: liveRoots must be a positive integer, got ${liveRoots}`);
  const job = startPeriodicJob('overview rollup', intervalMs, log, (stopped) => refreshStaleHours(calls, now(), { stopped }));
  // the overview may leave stale hours out while this job catches up (overview/overview-live-bound.ts)
  calls.defaultLiveRoots = liveRoots;
  return {
    runNow: job.runNow,
    async stop() {
      calls.defaultLiveRoots = null;
      await job.stop();
    },
  };
}
