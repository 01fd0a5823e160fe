/**
 * The media files a call refers to, counted apart from its JSON (issue 51): how many distinct stored files its inputs
 * and output hold references to, and their bytes, for the list's `files` column. Pure.
 * @module
 */
import { isStoredMediaRef, mediaRefsIn } from '../../media-ref.js';

/** What {@link filesOf} counts: distinct stored files, their bytes, and references whose bytes were dropped. */
export interface CallFiles {
  count: number;
  bytes: number;
  dropped: number;
}

const counted = new WeakMap<object, CallFiles>();

/** The files `call`'s inputs and output refer to (each digest once), remembered per record object. */
export function filesOf(call: { inputs?: unknown; output?: unknown }): CallFiles {
  const known = counted.get(call);
  if (known) return known;
  const sizes = new Map<string, number>();
  let dropped = 0;
  for (const ref of mediaRefsIn([call.inputs, call.output])) {
    if (isStoredMediaRef(ref)) sizes.set(ref.digest, ref.size_bytes);
    else dropped += 1;
  }
  let bytes = 0;
  for (const size of sizes.values()) bytes += size;
  const files = { count: sizes.size, bytes, dropped };
  counted.set(call, files);
  return files;
}
