/**
 * The server's rollup job (on in `weft serve`): at start and then every interval, recomputes the overview's stale hour
 * rollups (marked by writes, rollup-marks.ts), oldest first, one hour per transaction, each taking its turn with the
 * writes (calls/call-turns.ts). The overview is exact whatever the job has done (stale hours are counted live); the
 * job only makes it fast.
 * @module
 */
import type { CallStore } from '../call-store.js';
import { callTurns } from '../call-turns.js';
import { HOUR_MS } from '../overview/overview-plan.js';
import { hourAt } from '../write/rollup-marks.js';
import { type PeriodicJob, startPeriodicJob } from './periodic-job.js';

/** How often the job looks for stale hours after its first run at start: every 30 s. */
export const ROLLUP_INTERVAL_MS = 30_000;

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
}

/** A running rollup job: `runNow()` answers how many hours it refreshed; `stop()` waits for the run to end at its next hour. */
export type RollupJob = PeriodicJob<number>;

/**
 * Refreshes the stale hours before the hour in progress, until none is left or `stopped()`.
 * @returns how many hours it refreshed.
 */
export async function refreshStaleHours(calls: CallStore, now: Date, stopped: () => boolean = () => false): Promise<number> {
  const turns = callTurns(calls);
  const before = hourAt(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  let refreshed = 0;
  for (;;) {
    const page = await calls.staleRollupHours(before, PAGE);
    for (const { projectId, hour } of page) {
      if (stopped()) return refreshed;
      if (await turns.run(() => calls.refreshRollupHour(projectId, hour))) refreshed += 1;
    }
    if (page.length < PAGE) return refreshed;
  }
}

/**
 * Starts the job: a first run at once, then one every `intervalMs` (the timer does not keep the process alive). A run
 * that fails is logged and the next one tries again; nothing is thrown into the server.
 * @throws TypeError when `intervalMs` is not a positive integer.
 */
export function startRollupJob(calls: CallStore, options: RollupJobOptions): RollupJob {
  const { intervalMs = ROLLUP_INTERVAL_MS, log, now = () => new Date() } = options;
  return startPeriodicJob('overview rollup', intervalMs, log, (stopped) => refreshStaleHours(calls, now(), stopped));
}
