/**
 * Options of the call exporter beyond batching: retries, disk spool, serverless flushing.
 * @module
 */
import { DEFAULT_RETRY_POLICY } from '../api/core/retry.js';
import { DEFAULT_BATCHER_OPTIONS, type BatcherOptions } from './batcher-options.js';

/** When events are sent. */
export type FlushMode = 'batch' | 'immediate';

/** Options of {@link CallExporter}; `init()` fills them from its own options and env vars. */
export interface ExportOptions extends BatcherOptions {
  /** HTTP retries per export request after connection errors, 408, 409, 429, 5xx (min 0). @defaultValue 20 */
  maxRetries: number;
  /** Backoff ceiling of the first retry, in ms; it doubles per retry (full jitter). @defaultValue 500 */
  retryInitialDelayMs: number;
  /** Largest backoff ceiling, in ms. `Retry-After` (seconds or HTTP date, up to 60 s) wins over it. @defaultValue 8000 */
  retryMaxDelayMs: number;
  /**
   * Time a batch may spend on retries, in ms from its first attempt. Past it the batch goes to the
   * spool (when `spoolDir` is set) or is dropped as `unreachable`. Env: `WEFT_RETRY_BUDGET_MS`. @defaultValue 30000
   */
  retryBudgetMs: number;
  /**
   * Directory of the disk spool. When set, events the memory queue cannot hold, and batches still
   * undelivered after the retry budget, are appended there (JSONL segments) instead of being dropped,
   * and replayed in order once the server answers, also by the next process using the same directory.
   * Env: `WEFT_SPOOL_DIR`. @defaultValue none (no spool)
   */
  spoolDir: string | undefined;
  /** Size cap of the spool directory, in bytes; past it new events are dropped as `spool_full`. Env: `WEFT_SPOOL_MAX_BYTES`. @defaultValue 268435456 (256 MiB) */
  spoolMaxBytes: number;
  /**
   * `'batch'`: events are sent when a batch fills up or `flushIntervalMs` passes. `'immediate'`: also as
   * soon as a root call (one without parent) ends, for serverless functions. Env: `WEFT_FLUSH_MODE`. @defaultValue 'batch'
   */
  flushMode: FlushMode;
  /**
   * Called with the flush promise each time a root call ends (e.g. Vercel's or Cloudflare's
   * `ctx.waitUntil`), so the platform keeps the function alive until its events are sent. The
   * promise never rejects. @defaultValue none
   */
  waitUntil: ((promise: Promise<unknown>) => void) | undefined;
}

/** Defaults of {@link ExportOptions}. */
export const DEFAULT_EXPORT_OPTIONS: ExportOptions = {
  ...DEFAULT_BATCHER_OPTIONS,
  maxRetries: 20,
  retryInitialDelayMs: DEFAULT_RETRY_POLICY.initialDelayMs,
  retryMaxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs,
  retryBudgetMs: 30_000,
  spoolDir: undefined,
  spoolMaxBytes: 256 * 1024 * 1024,
  flushMode: 'batch',
  waitUntil: undefined,
};
