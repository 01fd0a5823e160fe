/**
 * JSON text of upsert_batch items: the event serialized once by `JSON.stringify`, framed by constant text.
 * @module
 */
/** Text before the event in a start item: `{"mode":"start","req":{"start":` (ASCII). */
export const START_HEAD = '{"mode":"start","req":{"start":';
/** Text before the event in an end item: `{"mode":"end","req":{"end":` (ASCII). */
export const END_HEAD = '{"mode":"end","req":{"end":';
/** Text after the event in either item: `}}` (ASCII). */
export const ITEM_TAIL = '}}';

/**
 * The JSON text of an upsert_batch item `{"mode": mode, "req": {[mode]: event}}` around the event's JSON text
 * `body`: the same as `JSON.stringify` of the item (a concatenation: flatten it to keep it, see `flat()` in
 * `entry-chunks.ts`). The exporter writes the three parts into its shared buffer one by one instead, without
 * joining them. (Until issue 31 the event's text was written by hand as a concatenation of pieces: ~20
 * short-lived strings per event, and a flat copy of them when packed, more garbage than `JSON.stringify`
 * makes, for no less CPU.)
 */
export function itemText(mode: 'start' | 'end', body: string): string {
  return `${mode === 'start' ? START_HEAD : END_HEAD}${body}${ITEM_TAIL}`;
}
