/**
 * The run of the server's feedback rollup job (start-server.ts runs it at start and then every interval, beside the
 * overview's, with `rollups`, as a calls/jobs/periodic-job.ts job): recomputes the stale hours of the feedback rollups
 * (marked by writes, feedback-rollup-marks.ts), oldest first: each hour's rows read in slices of 2,000 with the event loop
 * yielded between them, then stored in one short transaction, so no request waits behind more than a slice.
 * `/feedback/stats` is exact whatever the job has done (stale hours are read from rows); the job only makes it fast.
 * @module
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { FeedbackStore } from './feedback-store.js';
import type { HourCursor } from './feedback-rollup-refresh.js';
import { HourFold } from './rollup-fold.js';

/** How often the job looks for stale hours after its first run at start: every 30 s. */
export const FEEDBACK_ROLLUP_INTERVAL_MS = 30_000;

/** Stale hours read per query. */
const PAGE = 100;

/** Rows of an hour read per slice: a few milliseconds of reading and folding. */
const SLICE = 2_000;

/**
 * Recomputes one stale hour: its rows read a slice at a time, the event loop yielded between slices, folded, and
 * stored if no write marked the hour meanwhile (feedback-rollup-refresh.ts).
 * @returns whether the hour's rollup was stored (false: not marked, or marked again; a later run takes it).
 */
export async function refreshHour(feedback: FeedbackStore, projectId: string, hour: string): Promise<boolean> {
  const gen = await feedback.rollupMarkGen(projectId, hour);
  if (gen === undefined) return false;
  const fold = new HourFold();
  let after: HourCursor | null = null;
  for (;;) {
    const rows = await feedback.rollupHourRows(projectId, hour, after, SLICE);
    for (const r of rows) fold.add(r.feedback_type, JSON.parse(r.payload));
    if (rows.length < SLICE) break;
    after = rows.at(-1)!;
    await yieldTurn();
  }
  return feedback.storeRollupHour(projectId, hour, gen, fold.cells());
}

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
      if (await refreshHour(feedback, projectId, hour)) refreshed += 1;
      await yieldTurn();
    }
    if (page.length < PAGE) return refreshed;
  }
}
