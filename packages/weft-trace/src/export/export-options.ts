/**
 * The exporter's options: its slices of the `init()` options (documented on `InitOptions`), with their defaults from the option table.
 * @module
 */
import { defaultsOf } from '../init-option-table.js';
import type { InitOptions } from '../init-options.js';

/** The options that decide when a batch is cut, how many requests fly at once and how much may wait. */
const BATCHER_OPTIONS = ['maxBatchItems', 'maxBatchBytes', 'flushIntervalMs', 'maxConcurrentRequests', 'maxQueueItems', 'maxQueueBytes'] as const;
/** The other options of the call exporter: retries, disk spool (and its courier at exit), serverless flushing. */
const EXPORTER_OPTIONS = ['maxRetries', 'retryInitialDelayMs', 'retryMaxDelayMs', 'retryBudgetMs', 'spoolMaxBytes', 'spoolCourier', 'flushMode'] as const;
/** Options of the call exporter that have no default. */
const UNSET_OPTIONS = ['spoolDir', 'waitUntil'] as const;

/** Options of {@link Batcher}; `init()` fills them from its own options and env vars. */
export type BatcherOptions = Required<Pick<InitOptions, (typeof BATCHER_OPTIONS)[number]>>;

/** Options of {@link CallExporter}; `init()` fills them from its own options and env vars. */
export type ExportOptions = BatcherOptions &
  Required<Pick<InitOptions, (typeof EXPORTER_OPTIONS)[number]>> &
  Pick<InitOptions, (typeof UNSET_OPTIONS)[number]>;

/** Defaults of {@link BatcherOptions}. */
export const DEFAULT_BATCHER_OPTIONS: BatcherOptions = defaultsOf(BATCHER_OPTIONS);

/** Defaults of {@link ExportOptions}. */
export const DEFAULT_EXPORT_OPTIONS: ExportOptions = { ...DEFAULT_BATCHER_OPTIONS, ...defaultsOf(EXPORTER_OPTIONS), ...defaultsOf(UNSET_OPTIONS) };
