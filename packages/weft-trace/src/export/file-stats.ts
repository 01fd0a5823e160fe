/**
 * The media file counters of this process (`getExportStats().files`), shared by every copy of weft.
 * @module
 */

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

const KEY = Symbol.for('weft.fileStats');
const g = globalThis as Record<symbol, FileStats | undefined>;

/** The live counters (the file uploader updates them). */
export const fileStats: FileStats = (g[KEY] ??= { sent: 0, sentBytes: 0, deduplicated: 0, dropped: 0, pending: 0, pendingBytes: 0 });
