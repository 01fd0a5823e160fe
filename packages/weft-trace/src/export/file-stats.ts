/**
 * The media file counters of this process (`getExportStats().files`), shared by every copy of weft.
 * @module
 */
import { exportStatsSlot } from './stats-slot.js';

/** What the file uploader did since the process started, in files unless named otherwise. */
export interface FileStats {
  /** Files the server stored (`POST /file/create` answered). */
  sent: number;
  /** Bytes of those files. */
  sentBytes: number;
  /** Media values whose bytes were already sent or on their way (same digest in the project): sent once. */
  deduplicated: number;
  /** Media values whose bytes were not stored (over `maxFileBytes`, over `maxPendingBytes`, refused by the server, not sent in time). */
  dropped: number;
  /** Files waiting to be sent now, and their bytes. */
  pending: number;
  pendingBytes: number;
}

/** The live counters (the file uploader updates them): the `files` field of the registry's export counters. */
export const fileStats = (exportStatsSlot()['files'] ??= { sent: 0, sentBytes: 0, deduplicated: 0, dropped: 0, pending: 0, pendingBytes: 0 } satisfies FileStats) as FileStats;
