/**
 * A first-in first-out queue of synchronous jobs (batch writes, stream pages) that runs one job, or one group of
 * consecutive write jobs, per event-loop turn.
 * @module
 */

/**
 * Consecutive groupable jobs run together in one turn while their sizes add up to at most this (a turn stays bounded):
 * 1 MiB of request body, about 8 batches of 250 calls as the SDK sends them; a batch this big or bigger runs alone.
 */
export const MAX_GROUP_SIZE = 1024 * 1024;

interface Job {
  /** Runs the job; answers what it returns, throws what it throws. */
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Its size when it may run in one group with its groupable neighbours ({@link TurnQueue.runGrouped}), else undefined. */
  size?: number;
}

/** What a job of a group did: returned a value or threw. */
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/**
 * Runs queued jobs one at a time, each in its own `setImmediate` callback, in the order they were queued.
 *
 * better-sqlite3 is synchronous: a batch write or a stream page holds the event loop while it runs. Run
 * straight from request callbacks, every request whose body completed in the same poll phase was written
 * back to back, and a stream whose client read fast pulled page after page in microtasks, so other
 * sockets were not read, accepted or answered until it ended (issue 11, item 6). Through this queue, at
 * most one job runs per turn, with I/O polled between jobs, and a stream's pages take turns with writes
 * instead of running ahead of them.
 *
 * Writes queued back to back under load may share a turn and one transaction ({@link runGrouped}): each keeps its
 * own all-or-nothing (a savepoint), and the group pays one commit instead of one per batch (issue 37).
 */
export class TurnQueue {
  private readonly jobs: Job[] = [];
  private scheduled = false;

  /**
   * @param together - runs a group's jobs as one unit (SQLite: one transaction, each job's own transaction nested in it
   *   as a savepoint); when it throws, every job of the group fails with its error. Default: runs them as they are.
   */
  constructor(private readonly together: (jobs: () => void) => void = (jobs) => jobs()) {}

  /**
   * Queues `job` and resolves with what it returns (rejects with what it throws).
   * @param job - synchronous work; keep it bounded (one batch, one page).
   */
  run<T>(job: () => T): Promise<T> {
    return this.queue(job);
  }

  /**
   * As {@link run}, but the job may share its turn with the groupable jobs queued right after it, as long as their
   * sizes add up to at most {@link MAX_GROUP_SIZE}, all run inside `together`. It resolves once the whole group is done
   * (with SQLite: committed).
   * @param job - a write that stays all-or-nothing on its own when nested (a store transaction).
   * @param size - what it weighs against {@link MAX_GROUP_SIZE}: its request body's length.
   */
  runGrouped<T>(job: () => T, size: number): Promise<T> {
    return this.queue(job, size);
  }

  /** Jobs waiting (the running one excluded). */
  get waiting(): number {
    return this.jobs.length;
  }

  private queue<T>(run: () => T, size?: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ run, resolve: resolve as (value: unknown) => void, reject, size });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.jobs.length === 0) return;
    this.scheduled = true;
    setImmediate(this.pump);
  }

  private readonly pump = (): void => {
    this.scheduled = false;
    const first = this.jobs.shift();
    if (first) {
      const group = [first];
      let size = first.size ?? Infinity;
      for (let next = this.jobs[0]; next?.size !== undefined && size + next.size <= MAX_GROUP_SIZE; next = this.jobs[0]) {
        size += next.size;
        group.push(this.jobs.shift() as Job);
      }
      if (group.length === 1) settle(first, attempt(first));
      else runGroup(group, this.together);
    }
    this.schedule();
  };
}

function attempt(job: Job): Outcome {
  try {
    return { ok: true, value: job.run() };
  } catch (err) {
    return { ok: false, err };
  }
}

function settle(job: Job, outcome: Outcome): void {
  if (outcome.ok) job.resolve(outcome.value);
  else job.reject(outcome.err);
}

/** Runs a group's jobs inside `together`; each job settles after it returns, all fail with its error when it throws. */
function runGroup(group: readonly Job[], together: (jobs: () => void) => void): void {
  const outcomes: Outcome[] = [];
  try {
    together(() => {
      for (const job of group) outcomes.push(attempt(job));
    });
  } catch (err) {
    for (const job of group) job.reject(err);
    return;
  }
  group.forEach((job, i) => settle(job, outcomes[i] as Outcome));
}
