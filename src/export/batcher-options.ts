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
   * A batch is also cut before its serialized events would exceed this many bytes (min 1024). A single
   * event larger than this is sent with its inputs, output and attributes replaced by a marker
   * `{_weft_truncated: {original_bytes}}`. The local server accepts bodies up to 32 MiB.
   * Env: `WEFT_MAX_BATCH_BYTES`. @defaultValue 4194304 (4 MiB)
   */
  maxBatchBytes: number;
  /**
   * Buffered events are sent at the latest this long after the first of them arrived, in ms (min 1).
   * The timer is unref'd, so it never keeps the process alive. Env: `WEFT_FLUSH_INTERVAL_MS`. @defaultValue 1000
   */
  flushIntervalMs: number;
  /** Requests in flight at once (min 1). @defaultValue 2 */
  maxConcurrentRequests: number;
  /**
   * Events held in memory (buffered or waiting to be sent) before new ones are spooled or dropped (min 1).
   * The last 10% are kept for end events of calls already started. @defaultValue 100000
   */
  maxQueueItems: number;
  /**
   * Serialized bytes of the events held in memory before new ones are spooled or dropped (min 1024).
   * The last 10% are kept for end events of calls already started. @defaultValue 67108864 (64 MiB)
   */
  maxQueueBytes: number;
}

export const DEFAULT_BATCHER_OPTIONS: BatcherOptions = {
  maxBatchItems: 500,
  maxBatchBytes: 4 * 1024 * 1024,
  flushIntervalMs: 1000,
  maxConcurrentRequests: 2,
  maxQueueItems: 100_000,
  maxQueueBytes: 64 * 1024 * 1024,
};
