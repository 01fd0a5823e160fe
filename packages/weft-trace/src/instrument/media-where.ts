/**
 * Writes each media value's place into it (`where`, e.g. `messages[0].content[1].image_url.url`): run on a recorded
 * value only when its capture made media, so calls without media never pay for it.
 * @module
 */
import { MediaValue } from './media-value.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Sets `where` of every {@link MediaValue} in `value` (a serialized value: plain objects and arrays), relative to it. */
export function locateMedia(value: unknown, path = ''): void {
  if (value === null || typeof value !== 'object') return;
  if (value instanceof MediaValue) {
    value.where = path;
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) locateMedia(value[i], `${path}[${i}]`);
    return;
  }
  for (const key of Object.keys(value)) {
    const step = IDENTIFIER.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
    locateMedia((value as Record<string, unknown>)[key], step);
  }
}
