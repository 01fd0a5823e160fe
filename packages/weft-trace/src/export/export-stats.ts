/**
 * Export counters of this process (getExportStats()), and the one rate-limited warning about dropped events.
 * @module
 */
import { diag } from '../internal/diag.js';
import { samplingStats, type SamplingStats } from './sampling-stats.js';
import { fileStats, type FileStats } from './file-stats.js';
import { exportStatsSlot } from './stats-slot.js';

/** Why events were given up on. */
export type DropReason =
  /** The memory queue was full (and there was no spool). */
  | 'queue_full'
  /** The disk spool was at `spoolMaxBytes`. */
  | 'spool_full'
  /** The server refused the event as invalid (422 naming it). */
  | 'invalid'
  /** The server refused the batch with a non-retryable status (400, 401, 403, 404, ...). */
  | 'rejected'
  /** The server stayed unreachable (or kept answering 408/429/5xx) past the retry budget, and there was no spool. */
  | 'unreachable'
  /** A single event was over `maxBatchBytes` even with its inputs, output and attributes truncated. */
  | 'oversize'
  /** The event arrived after `shutdown()`. */
  | 'shutdown'
  /** Still unsent when the exit deadline (`exitTimeoutMs`) passed without a spool, or a spool write failed or a spooled line was unreadable. */
  | 'abandoned';

const REASONS: readonly DropReason[] = ['queue_full', 'spool_full', 'invalid', 'rejected', 'unreachable', 'oversize', 'shutdown', 'abandoned'];

/** Counters since the process started (all exporters together), in events unless named otherwise. */
export interface ExportStats {
  /** Events accepted for export (into memory or straight into the spool). */
  queued: number;
  /** Events acknowledged by the server (replayed ones included). */
  sent: number;
  /** HTTP retries made by the exporter (requests, not events). */
  retried: number;
  /** Events given up on, by reason. */
  dropped: Record<DropReason, number>;
  /** Events written to the disk spool. */
  spooled: number;
  /** Spooled events acknowledged by the server (also counted in `sent`). */
  replayed: number;
  /** Export requests waiting for an answer now. */
  inFlightRequests: number;
  /** Body bytes of the export requests in flight now. */
  inFlightBytes: number;
  /** Events held in memory now (buffered or being sent). */
  queueItems: number;
  /** Serialized bytes of the events held in memory now. */
  queueBytes: number;
  /** What `init({ sampling })` decided: traces sent and left out (all zero without it). */
  sampling: SamplingStats;
  /** Media stored as files (`init({ media })`): sent, sent once for several values, dropped, waiting. */
  files: FileStats;
}

const zeroDrops = (): Record<DropReason, number> => Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<DropReason, number>;

/** The event counters at zero: this module's fields of the registry's export counters slot (stats-slot.ts). */
const ZERO = { queued: 0, sent: 0, retried: 0, spooled: 0, replayed: 0, inFlightRequests: 0, inFlightBytes: 0, queueItems: 0, queueBytes: 0 } satisfies Omit<ExportStats, 'dropped' | 'sampling' | 'files'>;

const slot = exportStatsSlot();
for (const [field, zero] of Object.entries(ZERO)) slot[field] ??= zero;
slot['dropped'] ??= zeroDrops();

/**
 * The live counters; export/ modules update them. Kept in the process-wide registry, so an ESM and a
 * CJS copy of weft count into (and `getExportStats()` reads) the same numbers.
 */
export const stats = slot as unknown as ExportStats; // sampling-stats.ts and file-stats.ts filled `sampling` and `files`

/**
 * A snapshot of the export counters of this process, since it started (all `init()`s together).
 * Take two and subtract to see what happened in between.
 * @example
 * const { dropped, spooled } = getExportStats();
 * @since 0.1.0
 */
export function getExportStats(): ExportStats {
  return { ...stats, dropped: { ...stats.dropped }, sampling: { ...samplingStats }, files: { ...fileStats } };
}

const lastWarnAt = new Map<string, number>();
let unwarned = 0;

/** Logs `message()` at warn level unless a warning with the same `key` was logged in the last 10 s; returns whether it logged. */
export function warnRateLimited(key: string, message: () => string): boolean {
  const now = Date.now();
  if (now - (lastWarnAt.get(key) ?? -Infinity) < 10_000) return false;
  lastWarnAt.set(key, now);
  diag.warn(message());
  return true;
}

/** Warns about drops not yet warned about (e.g. at flush), regardless of the rate limit. */
export function warnUnreportedDrops(): void {
  if (unwarned === 0) return;
  lastWarnAt.set('drop', Date.now());
  diag.warn(`dropped ${unwarned} more event(s) (calls and feedback) since the last warning; see getExportStats().dropped for the reasons`);
  unwarned = 0;
}

/** Counts `count` dropped events; warns at most once per 10 s, with how many were dropped since the last warning. */
export function countDrop(reason: DropReason, count: number, why: string): void {
  if (count <= 0) return;
  stats.dropped[reason] += count;
  unwarned += count;
  const total = () => REASONS.reduce((n, r) => n + stats.dropped[r], 0);
  const message = () => `dropped ${unwarned} event(s) (${reason}): ${why} (${total()} dropped in this process so far; see getExportStats())`;
  if (warnRateLimited('drop', message)) unwarned = 0;
}
