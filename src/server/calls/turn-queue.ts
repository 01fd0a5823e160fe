/**
 * A first-in first-out queue of synchronous jobs (batch writes, stream pages) that runs one job per event-loop turn.
 * @module
 */

/**
 * Runs queued jobs one at a time, each in its own `setImmediate` callback, in the order they were queued.
 *
 * better-sqlite3 is synchronous: a batch write or a stream page holds the event loop while it runs. Run
 * straight from request callbacks, every request whose body completed in the same poll phase was written
 * back to back, and a stream whose client read fast pulled page after page in microtasks, so other
 * sockets were not read, accepted or answered until it ended (issue 11, item 6). Through this queue, at
 * most one job runs per turn, with I/O polled between jobs, and a stream's pages take turns with writes
 * instead of running ahead of them.
 */
export class TurnQueue {
  private readonly jobs: (() => void)[] = [];
  private scheduled = false;

  /**
   * Queues `job` and resolves with what it returns (rejects with what it throws).
   * @param job - synchronous work; keep it bounded (one batch, one page).
   */
  run<T>(job: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
        try {
          resolve(job());
        } catch (err) {
          reject(err);
        }
      });
      this.schedule();
    });
  }

  /** Jobs waiting (the running one excluded). */
  get waiting(): number {
    return this.jobs.length;
  }

  private schedule(): void {
    if (this.scheduled || this.jobs.length === 0) return;
    this.scheduled = true;
    setImmediate(this.pump);
  }

  private readonly pump = (): void => {
    this.scheduled = false;
    this.jobs.shift()?.();
    this.schedule();
  };
}
