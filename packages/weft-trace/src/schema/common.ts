/**
 * Shared wire primitives: timestamps, JSON objects and refs used by every resource group.
 * @module
 */
import { z } from 'zod';
import { LIMITS, tooMany } from './limits.js';

/** An ISO 8601 timestamp (`date-time` in the spec); offsets are accepted and read as instants. */
export const DateTime = z.iso.datetime({ offset: true, local: false });

/** A JSON object with string keys (inputs, attributes, payload, ...). */
export const JsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObject>;

/** An optional string field; `null` is accepted and means absent. */
export const OptString = z.string().nullish();

/** An optional list of strings; `null` is accepted and means absent. */
export const OptStrings = z.array(z.string()).nullish();

/** Spec "Reference strings": `svc:///<entity>/<project>/object/<name>:<digest>`. */
export const ObjectRef = z.string().regex(/^svc:\/\/\/[^/]+\/[^/]+\/object\/[^/:]+:[^/]+$/, 'expected svc:///<entity>/<project>/object/<name>:<digest>');
/** Spec "Reference strings": `svc:///<entity>/<project>/op/<name>:<digest>`. */
export const OpRef = z.string().regex(/^svc:\/\/\/[^/]+\/[^/]+\/op\/[^/:]+:[^/]+$/, 'expected svc:///<entity>/<project>/op/<name>:<digest>');
/** Spec "Reference strings": `svc:///<entity>/<project>/call/<call_id>`. */
export const CallRef = z.string().regex(/^svc:\/\/\/[^/]+\/[^/]+\/call\/[^/]+$/, 'expected svc:///<entity>/<project>/call/<call_id>');

/** Control characters (U+0000-U+001F, U+007F), which no field path may hold (SQLite's JSON paths refuse them). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** A dotted field path (`sort_by[].field`, `$getField`, `columns`): not empty, no control characters. */
export const FieldPath = z
  .string()
  .min(1)
  .refine((s) => !CONTROL_CHARS.test(s), 'a field path must not contain control characters (U+0000-U+001F, U+007F)');

/** Spec "SortBy": a dotted field path and `asc` | `desc` (`direction` is accepted as an alias of `order`). */
export const SortBy = z
  .object({
    field: FieldPath,
    order: z.enum(['asc', 'desc']).optional(),
    direction: z.enum(['asc', 'desc']).optional(),
  })
  .transform(({ field, order, direction }) => ({ field, order: order ?? direction ?? 'asc' }));
export type SortBy = z.input<typeof SortBy>;
export type SortByResolved = z.output<typeof SortBy>;

/** A `sort_by` list: at most `LIMITS.maxSortBy` entries; `null` is accepted and means absent. */
export const SortByList = z.array(SortBy).max(LIMITS.maxSortBy, tooMany('sort_by entries', LIMITS.maxSortBy)).nullish();
