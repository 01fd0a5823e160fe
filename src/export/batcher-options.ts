/**
 * Options of the export batcher: when a batch is cut, how many requests fly at once, how much may wait.
 * @module
 */

/** Options of {@link Batcher}; `init()` fills them from its own options and env vars. */
export interface BatcherOptions {
  /**
   * A batch is sent as soon as this many events are buffered (min 1).
   * Env: `WEFT_MAX_BATCH_ITEMS`. @defaultValue 500
   */
  maxBatchItems: number;
  /**
   * Buffered events are sent at the latest this long after the first of them arrived, in ms (min 1).
   * The timer is unref'd, so it never keeps the process alive. Env: `WEFT_FLUSH_INTERVAL_MS`. @defaultValue 1000
   */
  flushIntervalMs: number;
  /** Requests in flight at once (min 1). @defaultValue 2 */
  maxConcurrentRequests: number;
  /**
   * Events held in memory (buffered or waiting to be sent) before new ones are dropped and counted (min 1).
   * @defaultValue 100000
   */
  maxQueueItems: number;
}

export const DEFAULT_BATCHER_OPTIONS: BatcherOptions = {
  maxBatchItems: 500,
  flushIntervalMs: 1000,
  maxConcurrentRequests: 2,
  maxQueueItems: 100_000,
};
