/**
 * The server's retention job (`weft serve --retention-days N`): at start and then every interval, deletes the traces
 * of every project started more than N days ago, in batches that take turns with the writes (calls/jobs/retention.ts).
 * @module
 */
import { DEFAULT_DELETE_BATCH } from 'weft-trace/wire';
import type { CallStore } from '../call-store.js';
import { deleteBefore, type DeletedTotals } from './retention.js';
import { type PeriodicJob, startPeriodicJob } from './periodic-job.js';

const DAY_MS = 86_400_000;

/** How often the job runs after its first run at start: every hour. */
export const RETENTION_INTERVAL_MS = 3_600_000;

/** Options of {@link startRetentionJob}. */
export interface RetentionJobOptions {
  /** Keep calls this many days (a positive number; fractions allowed); older traces are deleted. */
  days: number;
  /** Calls per transaction. @defaultValue 2,000 (`DEFAULT_DELETE_BATCH`) */
  batchSize?: number;
  /** Milliseconds between runs (min 1). @defaultValue 1 hour ({@link RETENTION_INTERVAL_MS}) */
  intervalMs?: number;
  /** Receives a line per run that deleted something, and per failed run. */
  log: (line: string) => void;
  /** The server clock. @defaultValue `() => new Date()` */
  now?: () => Date;
}

/** A running retention job: `runNow()` answers what it deleted; `stop()` waits for the run to end at its next batch. */
export type RetentionJob = PeriodicJob<DeletedTotals>;

/**
 * Starts the job: a first run at once, then one every `intervalMs` (the timer does not keep the process alive). A run
 * that fails is logged and the next one tries again; nothing is thrown into the server.
 * @throws TypeError when `days` is not a positive number or `intervalMs` / `batchSize` not a positive integer.
 */
export function startRetentionJob(calls: CallStore, options: RetentionJobOptions): RetentionJob {
  const { days, batchSize = DEFAULT_DELETE_BATCH, intervalMs = RETENTION_INTERVAL_MS, log, now = () => new Date() } = options;
  if (!(typeof days === 'number' && days > 0 && Number.isFinite(days))) throw new TypeError(`retentionDays must be a positive number, got ${String(days)} (${typeof days})`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError(`batchSize must be a positive integer, got ${String(batchSize)} (${typeof batchSize})`);
  const runOnce = async (stopped: () => boolean): Promise<DeletedTotals> => {
    const cutoff = new Date(now().getTime() - days * DAY_MS).toISOString();
    const totals = await deleteBefore(calls, { cutoff, batchSize, stopped });
    if (totals.calls > 0) log(`weft server: retention deleted ${totals.calls} calls, ${totals.feedback} feedback and ${totals.files} files started before ${cutoff} (${totals.batches} batches)`);
    return totals;
  };
  return startPeriodicJob('retention', intervalMs, log, runOnce);
}
