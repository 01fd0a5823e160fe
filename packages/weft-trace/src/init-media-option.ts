/**
 * The check of `init({ media })` and the media limits' defaults (what the file uploader, `export/file-uploader.ts`, is given), for the option table.
 * @module
 */
import { z } from 'zod';

/** Largest media file stored by default, in bytes (10 MB): a larger value's reference says it is over the limit. */
export const DEFAULT_MAX_FILE_BYTES = 10_000_000;

/** Bytes of media files waiting to be sent held in memory by default (64 MiB): past it, new files are dropped. */
export const DEFAULT_MAX_PENDING_FILE_BYTES = 64 * 1024 * 1024;

/** The media limits, resolved (`init({ media })` with the defaults filled in). */
export interface MediaOptions {
  /** Largest file stored, bytes. */
  maxFileBytes: number;
  /** Bytes of files waiting to be sent held in memory at most. */
  maxPendingBytes: number;
}

const got = (i: { input: unknown }) => `got ${JSON.stringify(i.input) ?? String(i.input)} (${typeof i.input})`;
const bytes = z.number({ error: (i) => `expected an integer number of bytes of 1 or more, ${got(i)}` }).int().min(1).optional();

/** The check of `init({ media })`: `false`, or the limits (each optional, unknown keys refused). */
export const MediaSchema = z.union([z.literal(false), z.object({ maxFileBytes: bytes, maxPendingBytes: bytes }).strict()], {
  error: (i) => `expected false or { maxFileBytes?, maxPendingBytes? }, ${got(i)}`,
});

/** `init({ media })` resolved: `undefined` when media are off, else the limits with their defaults. */
export function mediaOptionsOf(media: false | { maxFileBytes?: number | undefined; maxPendingBytes?: number | undefined } | undefined): MediaOptions | undefined {
  if (media === false) return undefined;
  return { maxFileBytes: media?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, maxPendingBytes: media?.maxPendingBytes ?? DEFAULT_MAX_PENDING_FILE_BYTES };
}
