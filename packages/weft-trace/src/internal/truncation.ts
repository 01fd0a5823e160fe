/**
 * How weft marks what it cut from a recorded value: one module, one spelling, used by the serializer, stream outputs and the exporter.
 *
 * Two forms, both with the word `truncated`:
 * - **in a value**, a string saying what is missing, `[truncated N <unit>]`:
 *   - a string over `maxStringLength` keeps its start, then `…[truncated N chars]` (also an exception's
 *     message and stack cut to fit an event under `maxBatchBytes`);
 *   - an array, `Map` or `Set` over `maxItems` ends in the item `"[truncated N items]"`; an object's kept keys are
 *     followed by the key `"…"` holding `"[truncated N keys]"`;
 *   - a stream's output over `maxStreamChunks` ends in the item `"[truncated N chunks]"`;
 *   - what is left of an object or array once the `maxTotalSize` budget is spent is `"[truncated: size limit]"`.
 * - **for a value replaced or cut whole**, the key `_weft_truncated` holding `{original_bytes, limit_bytes}`: a
 *   binary value keeps its first `limit_bytes` bytes in `base64` beside it; an event's `inputs` and `attributes`
 *   (start) or `output` (end) over `maxBatchBytes` become `{"_weft_truncated": {...}}` alone.
 * @module
 */

/** What a {@link truncatedMark} counts. */
export type TruncatedUnit = 'chars' | 'items' | 'keys' | 'chunks';

/** The key whose value marks a value replaced or cut whole. */
export const TRUNCATED_KEY = '_weft_truncated';

/** `{original_bytes, limit_bytes}` under {@link TRUNCATED_KEY}: the value's size and the limit it was cut to, in bytes. */
export interface TruncatedSize {
  original_bytes: number;
  limit_bytes: number;
}

/** The marker of what is left once the `maxTotalSize` budget is spent. */
export const SIZE_LIMIT_MARK = '[truncated: size limit]';

/** The key that holds an object's {@link truncatedMark} after its kept keys. */
export const TRUNCATED_KEYS_KEY = '…';

/** `[truncated N <unit>]`: `count` units left out. */
export function truncatedMark(count: number, unit: TruncatedUnit): string {
  return `[truncated ${count} ${unit}]`;
}

/** `s` unchanged when at most `max` characters, else its first `max` and `…[truncated N chars]`. */
export function cutString(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…${truncatedMark(s.length - max, 'chars')}`;
}

/** `{_weft_truncated: {original_bytes, limit_bytes}}`: the marker that replaces a value too large to send. */
export function truncatedValue(originalBytes: number, limitBytes: number): { [TRUNCATED_KEY]: TruncatedSize } {
  return { [TRUNCATED_KEY]: { original_bytes: originalBytes, limit_bytes: limitBytes } };
}
