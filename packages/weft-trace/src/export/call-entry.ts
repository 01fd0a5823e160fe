/**
 * Serializes a call event once for export, truncating one that is over the batch byte limit with a marker.
 * @module
 */
import { utf8Length } from '../internal/runtime.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert, UpsertBatchItem } from '../schema/calls.js';
import { BODY_OVERHEAD_BYTES } from './batcher.js';
import type { Entry } from './entry.js';
import { ITEM_FRAME_BYTES, packedEntry, packedItem } from './entry-chunks.js';
import { cutString, truncatedValue } from '../internal/truncation.js';

/** Longest exception message or stack kept in a truncated end event, in characters. */
const KEPT_EXCEPTION_CHARS = 4096;


/**
 * Serializes `item`. When it is over `maxBatchBytes` (less the body's framing), its `inputs` and
 * `attributes` (start) or `output` (end) are replaced by `{_weft_truncated: {original_bytes, limit_bytes}}`
 * (`internal/truncation.ts`), and an exception's message and stack are cut to 4096 characters (`…[truncated N chars]`).
 * @returns the entry, or `undefined` when the item cannot be serialized or is still too large.
 */
export function toCallEntry(item: UpsertBatchItem, maxBatchBytes: number): Entry | undefined {
  return item.mode === 'start' ? callEventEntry('start', item.req.start, maxBatchBytes) : callEventEntry('end', item.req.end, maxBatchBytes);
}

/**
 * {@link toCallEntry} of the item `{mode, req: {[mode]: event}}` without building it: the event is
 * serialized once (`JSON.stringify`), and its bytes written with the item's frame straight into a shared
 * buffer (`entry-chunks.ts`).
 */
export function callEventEntry(mode: 'start', event: StartedCallSchemaForInsert, maxBatchBytes: number): Entry | undefined;
export function callEventEntry(mode: 'end', event: EndedCallSchemaForInsert, maxBatchBytes: number): Entry | undefined;
export function callEventEntry(mode: 'start' | 'end', event: StartedCallSchemaForInsert | EndedCallSchemaForInsert, maxBatchBytes: number): Entry | undefined {
  const limit = maxBatchBytes - BODY_OVERHEAD_BYTES - 1;
  const id = event.id;
  const call = id ? { id, end: mode === 'end' } : undefined;
  let body: string | undefined;
  try {
    body = JSON.stringify(event) as string | undefined;
  } catch {
    return undefined;
  }
  if (body === undefined) return undefined;
  // at most 3 UTF-8 bytes per UTF-16 unit: a body under the limit even so is not counted before it is packed;
  // a longer one is counted once, here, and packed with that count
  const frame = ITEM_FRAME_BYTES[mode];
  if (frame + body.length * 3 <= limit) return packedItem(mode, body, call);
  const bodyBytes = utf8Length(body);
  if (frame + bodyBytes <= limit) return packedItem(mode, body, call, bodyBytes);
  const item = (mode === 'start' ? { mode, req: { start: event } } : { mode, req: { end: event } }) as UpsertBatchItem;
  const smaller = serialize(truncated(item, limit), call);
  return smaller && smaller.bytes <= limit ? packedEntry(smaller.json, smaller.bytes, call) : undefined;
}

/** The call an event serialized by {@link toCallEntry} belongs to (e.g. read back from the spool), for per-call order. */
export function callOf(value: unknown): Entry['call'] {
  const item = value as { mode?: unknown; req?: { start?: { id?: unknown }; end?: { id?: unknown } } } | null;
  const id = item?.mode === 'start' ? item.req?.start?.id : item?.mode === 'end' ? item.req?.end?.id : undefined;
  return typeof id === 'string' && id !== '' ? { id, end: item!.mode === 'end' } : undefined;
}

function truncated(item: UpsertBatchItem, limit: number): UpsertBatchItem {
  const mark = (value: unknown) => truncatedValue(serialize(value)?.bytes ?? 0, limit);
  if (item.mode === 'start') {
    const { start } = item.req;
    return { mode: 'start', req: { start: { ...start, inputs: mark(start.inputs), attributes: mark(start.attributes) } } };
  }
  const { end } = item.req;
  const out = { ...end, output: mark(end.output) };
  if (typeof end.exception === 'string') out.exception = cutString(end.exception, KEPT_EXCEPTION_CHARS);
  else if (end.exception) {
    const { message, stack } = end.exception;
    out.exception = { ...end.exception, message: cutString(message, KEPT_EXCEPTION_CHARS), stack: stack === undefined ? undefined : cutString(stack, KEPT_EXCEPTION_CHARS) };
  }
  return { mode: 'end', req: { end: out } };
}

function serialize(value: unknown, call?: Entry['call']): Entry | undefined {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? undefined : { json, bytes: utf8Length(json), call };
  } catch {
    return undefined;
  }
}
