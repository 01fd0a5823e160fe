/**
 * Runs monitor passes one after another, `intervalMs` apart (a pass never overlaps the previous one), until stopped:
 * what `weft serve` runs beside its routes and `weft monitors run` runs as a worker.
 * @module
 */
import { type MonitorPassOptions, type MonitorPassResult, MonitorRunner } from './monitor-pass.js';
import type { MonitorPort } from './monitor-port.js';

/** Options of {@link MonitorLoop}. */
export interface MonitorLoopOptions extends Omit<MonitorPassOptions, 'signal'> {
  /** Pause between the end of a pass and the start of the next, in ms. @defaultValue 5000 */
  intervalMs?: number;
}

/** A loop of passes over a port. Call `start()`; `stop()` ends it after the page in progress. */
export class MonitorLoop {
  readonly #runner: MonitorRunner;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<MonitorPassResult> | undefined;

  constructor(port: MonitorPort, private readonly options: MonitorLoopOptions = {}) {
    this.#runner = new MonitorRunner(port, options);
  }

  /** Schedules the first pass now and each next one `intervalMs` after the previous ended. The timer keeps no process alive. */
  start(): this {
    this.#schedule(0);
    return this;
  }

  /** Runs a pass now (after the one in progress, if any) and answers what it did. */
  async runOnce(): Promise<MonitorPassResult> {
    while (this.#running) await this.#running;
    this.#running = this.#runner.pass(this.#abort.signal);
    try {
      return await this.#running;
    } finally {
      this.#running = undefined;
    }
  }

  /**
   * Stops the loop: no further pass; the one in progress ends after its page. Resolves when it has, or after
   * `waitMs` (a judge's requests may wait for the next minute of its rate limit): a page cut short saved no progress,
   * so the next run scores it again, storing each score once.
   * @param waitMs - the longest wait, in ms. @defaultValue 2000
   */
  async stop(waitMs = 2000): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#running, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  #schedule(ms: number): void {
    if (this.#abort.signal.aborted) return;
    this.#timer = setTimeout(() => void this.runOnce().finally(() => this.#schedule(this.options.intervalMs ?? 5000)), ms);
    this.#timer.unref();
  }
}
