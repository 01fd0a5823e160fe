/**
 * The server's feedback rollup job (on in `weft serve`, beside the overview's, with `rollups`): at start and then every
 * interval, recomputes the stale hours of the feedback rollups (marked by writes, feedback-rollup-marks.ts), oldest
 * first, one hour per transaction, yielding the event loop between hours so no request waits behind more than one.
 * `/feedback/stats` is exact whatever the job has done (stale hours are read from rows); the job only makes it fast.
 * @module
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { type PeriodicJob, startPeriodicJob } from '../calls/periodic-job.js';
import type { FeedbackStore } from './feedback-store.js';

/** How often the job looks for stale hours after its first run at start: every 30 s. */
export const FEEDBACK_ROLLUP_INTERVAL_MS = 30_000;

/** Stale hours read per query. */
const PAGE = 100;

/** Options of {@link startFeedbackRollupJob}. */
export interface FeedbackRollupJobOptions {
  /** Milliseconds between runs (min 1). @defaultValue 30 s ({@link FEEDBACK_ROLLUP_INTERVAL_MS}) */
  intervalMs?: number;
  /** Receives a line per failed run. */
  log: (line: string) => void;
  /** The server clock: the hour in progress is left stale. @defaultValue `() => new Date()` */
  now?: () => Date;
}

/** A running job: `runNow()` answers how many hours it refreshed; `stop()` waits for the run to end at its next hour. */
export type FeedbackRollupJob = PeriodicJob<number>;

/**
 * Refreshes the stale hours before the hour in progress, until none is left or `stopped()`.
 * @returns how many hours it refreshed.
 */
export async function refreshStaleFeedbackHours(feedback: FeedbackStore, now: Date, stopped: () => boolean = () => false): Promise<number> {
  const before = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString().slice(0, 13);
  let refreshed = 0;
  for (;;) {
    const page = await feedback.staleRollupHours(before, PAGE);
    for (const { projectId, hour } of page) {
      if (stopped()) return refreshed;
      if (await feedback.refreshRollupHour(projectId, hour)) refreshed += 1;
      await yieldTurn();
    }
    if (page.length < PAGE) return refreshed;
  }
}

/**
 * Starts the job: a first run at once, then one every `intervalMs` (the timer does not keep the process alive). A run
 * that fails is logged and the next one tries again; nothing is thrown into the server.
 * @throws TypeError when `intervalMs` is not a positive integer.
 */
export function startFeedbackRollupJob(feedback: FeedbackStore, options: FeedbackRollupJobOptions): FeedbackRollupJob {
  const { intervalMs = FEEDBACK_ROLLUP_INTERVAL_MS, log, now = () => new Date() } = options;
  return startPeriodicJob('feedback rollup', intervalMs, log, (stopped) => refreshStaleFeedbackHours(feedback, now(), stopped));
}
