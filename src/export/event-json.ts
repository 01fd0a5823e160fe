/**
 * JSON text of upsert_batch items: the event serialized once by `JSON.stringify`, framed by constant text.
 * @module
 */
import { utf8Length } from '../internal/runtime.js';

/** Text before the event in a start item: `{"mode":"start","req":{"start":` (ASCII). */
export const START_HEAD = '{"mode":"start","req":{"start":';
/** Text before the event in an end item: `{"mode":"end","req":{"end":` (ASCII). */
export const END_HEAD = '{"mode":"end","req":{"end":';
/** Text after the event in either item: `}}` (ASCII). */
export const ITEM_TAIL = '}}';

/**
 * The JSON text of an upsert_batch item `{"mode": mode, "req": {[mode]: event}}`, the same as
 * `JSON.stringify` of it, and its UTF-8 length. (Until issue 31 the event's text was written by hand as a
 * concatenation of pieces: ~20 short-lived strings per event, and a flat copy of them when packed, more
 * garbage than `JSON.stringify` makes, for no less CPU.) The exporter writes the three parts into its shared
 * buffer one by one instead (`entry-chunks.ts`), without joining them.
 * @throws what `JSON.stringify` throws on a value in the event (a cycle, a BigInt).
 */
export function eventItemJson(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const json = itemText(mode, JSON.stringify(event));
  return { json, bytes: utf8Length(json) };
}

/** The item's text around the event's JSON text `body` (a concatenation: flatten it to keep it, see `flat()` in `entry-chunks.ts`). */
export function itemText(mode: 'start' | 'end', body: string): string {
  return `${mode === 'start' ? START_HEAD : END_HEAD}${body}${ITEM_TAIL}`;
}
