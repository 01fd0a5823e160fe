/**
 * A job the server runs at start and then every interval (retention, overview rollups): runs never overlap, a failed
 * run is logged and the next one tries again, `stop()` waits for the run in progress.
 * @module
 */
import { safeMessage } from 'weft-trace/client';

/** A running periodic job. */
export interface PeriodicJob<T> {
  /** Runs once more now (after the run in progress, if any) and answers its result. @throws what the run throws. */
  runNow(): Promise<T>;
  /** Stops the timer and waits for the run in progress to end (it is told by `stopped()`). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a job: a first run at once, then one every `intervalMs` (the timer does not keep the process alive).
 * @param name - the job's name in the line logged for a failed run.
 * @param run - one run; `stopped()` turns true once `stop()` was called.
 * @throws TypeError when `intervalMs` is not a positive integer (before anything runs).
 */
export function startPeriodicJob<T>(name: string, intervalMs: number, log: (line: string) => void, run: (stopped: () => boolean) => Promise<T>): PeriodicJob<T> {
  if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new TypeError(`intervalMs must be a positive integer, got ${String(intervalMs)} (${typeof intervalMs})`);
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const queue = (): Promise<T> => {
    const next = running.then(() => run(() => stopped));
    running = next.catch(() => undefined);
    return next;
  };
  const tick = (): void => {
    queue().catch((err: unknown) => log(`weft server: ${name} run failed (next run in ${intervalMs} ms): ${safeMessage(err)}`));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    runNow: queue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
