/**
 * The media reference: what a stored call holds in place of media bytes (an image, audio, a PDF), the bytes being a
 * file of the project read back with `POST /file/content {project_id, digest}` (issue 51).
 * @module
 */
import { z } from 'zod';
import { MEDIA_REF_TYPE } from './media-ref.js';

export { isMediaRef, MEDIA_REF_TYPE } from './media-ref.js';

/**
 * A media value of a stored call's `inputs` or `output`, in place of its base64 text, data URL or bytes:
 * - `mime_type`: the media type, from the data URL, the provider's field or the bytes' magic numbers
 *   (`application/octet-stream` when none says);
 * - `size_bytes`: the size of the bytes (decoded, not of their base64 text);
 * - `digest`: the file's digest as `POST /file/create` answers it (sha256 of the bytes, base64url with `-`→`X`,
 *   `_`→`Y`, no `=` padding; 43 characters); absent when the bytes were not stored, and then
 * - `dropped`: why not, in words (e.g. `over the 10 MB limit (12.3 MB)`, `memory bound for files waiting reached`,
 *   `server refused: 413 ...`);
 * - `where`: where the value was in the recorded inputs or output, as a path (`messages[0].content[1].image_url.url`;
 *   `""` for the value itself).
 *
 * A call may be stored before its file: a reader that gets 404 from `/file/content` says the file has not arrived yet.
 * Unknown keys are kept (a later writer may add some).
 * @see docs/tracing.md, "Media"
 */
export const MediaRef = z.looseObject({
  _type: z.literal(MEDIA_REF_TYPE),
  mime_type: z.string(),
  size_bytes: z.number().int().nonnegative(),
  digest: z.string().min(1).optional(),
  dropped: z.string().optional(),
  where: z.string(),
});
export type MediaRef = z.infer<typeof MediaRef>;
