/**
 * How a reader tells a media reference in a stored call (`MediaRef`, `media.ts`) from any other value, without zod (the viewer's bundle takes it through `weft-trace/viewer`).
 * @module
 */

/** The `_type` of a `MediaRef`: how a reader tells a media reference from any other object in a call. */
export const MEDIA_REF_TYPE = 'weft.media';

/**
 * Whether a JSON value of a stored call is a media reference (by its `_type`; the rest is not checked: `MediaRef` of
 * `weft-trace/wire` checks it all).
 */
export function isMediaRef(value: unknown): value is { _type: typeof MEDIA_REF_TYPE; mime_type: string; size_bytes: number; digest?: string; dropped?: string; where: string } {
  return value !== null && typeof value === 'object' && (value as { _type?: unknown })._type === MEDIA_REF_TYPE;
}
