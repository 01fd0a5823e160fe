/**
 * Fast structural check of a `/call/upsert_batch` body: zod's exact output for a valid body, else `undefined` so zod decides.
 * @module
 */
import type { z } from 'zod';
import { type CallUpsertBatchReq, CallSummary, LlmUsage } from 'weft-trace/wire';
import { LIMITS } from 'weft-trace/wire';
import { isProjectId } from 'weft-trace/wire';
import { DATE_TIME_PATTERN as DATE_TIME } from '../../db/timestamps.js';
import { END_FIELDS, type FieldKind, START_FIELDS } from './call-fields.js';

/** The validated body (zod output of `CallUpsertBatchReq`). */
export type UpsertBatchBody = z.output<typeof CallUpsertBatchReq>;
type Obj = Record<string, unknown>;

const EXCEPTION_KEYS = ['type', 'message', 'stack'];
const SUMMARY_KEYS = Object.keys(CallSummary.shape);
/** Every declared usage key is an optional number (a key of another type fails the check: zod decides then). */
const USAGE_KEYS = Object.keys(LlmUsage.shape);

/** Thrown inside this module when a body is not plainly valid; never escapes {@link fastParseUpsertBatch}. */
const NOT_PLAIN = Symbol('not plain');

function fail(): never {
  throw NOT_PLAIN;
}

/** A JSON object zod rebuilds; an own `__proto__` key is left to zod, which drops it. */
function obj(v: unknown): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.hasOwn(v, '__proto__')) fail();
  return v as Obj;
}

function str(v: unknown, min = 0): string {
  if (typeof v !== 'string' || v.length < min) fail();
  return v;
}

function optStr(v: unknown): unknown {
  if (v !== undefined && v !== null && typeof v !== 'string') fail();
  return v;
}

function optNum(v: unknown): void {
  if (v !== undefined && typeof v !== 'number') fail();
}

/** Copies the present `keys` of `from`, in the order of `keys` (what a zod object outputs). */
function pick(from: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/** A zod `looseObject`'s output: its declared keys first, in declaration order, then the others in input order. */
function loose(from: Obj, keys: readonly string[], out: Obj = pick(from, keys)): Obj {
  for (const k of Object.keys(from)) if (!keys.includes(k)) out[k] = from[k];
  return out;
}

function exceptionOf(v: unknown): unknown {
  if (v === null || typeof v === 'string') return v;
  const e = obj(v);
  str(e['message']);
  if ((e['type'] !== undefined && typeof e['type'] !== 'string') || (e['stack'] !== undefined && typeof e['stack'] !== 'string')) fail();
  return loose(e, EXCEPTION_KEYS);
}

function summaryOf(v: unknown): Obj {
  const s = obj(v);
  const out: Obj = {};
  if (s['usage'] !== undefined) {
    const usage: Obj = {};
    for (const [model, u] of Object.entries(obj(s['usage']))) {
      const per = obj(u);
      for (const k of USAGE_KEYS) optNum(per[k]);
      usage[model] = loose(per, USAGE_KEYS);
    }
    out['usage'] = usage;
  }
  if (s['status_counts'] !== undefined) {
    for (const n of Object.values(obj(s['status_counts']))) if (typeof n !== 'number') fail();
    out['status_counts'] = s['status_counts'];
  }
  return loose(s, SUMMARY_KEYS, out);
}

/** The last project id accepted: a batch's items nearly always share one, checked once then. */
let knownProject: unknown;

function projectOf(v: unknown): unknown {
  if (v === knownProject) return v;
  if (!isProjectId(v)) fail();
  return (knownProject = v);
}

/**
 * Each field kind of call-fields.ts checked as zod checks it: the value zod outputs (undefined: the key is left out),
 * else {@link fail}. A kind added there without a check here fails the build.
 */
const CHECKS: Record<FieldKind, (v: unknown) => unknown> = {
  'project': projectOf,
  'key': (v) => str(v, 1),
  'key?': optStr,
  'name': (v) => str(v, 1),
  'text?': optStr,
  'end-name': optStr,
  'count-mark': (v) => (v === undefined || typeof v === 'boolean' ? v : fail()),
  'time': (v) => (DATE_TIME.test(str(v)) ? v : fail()),
  'object': obj,
  'object?': (v) => (v === undefined || v === null ? v : obj(v)),
  'json?': (v) => v,
  'int?': (v) => (v === undefined || v === null || Number.isSafeInteger(v) ? v : fail()),
  'exception': (v) => (v === undefined ? v : exceptionOf(v)),
  'summary': summaryOf,
};

/** A shape's fields in its order, each with its check (looked up once, not per item). */
type Checked = readonly (readonly [key: string, check: (v: unknown) => unknown])[];
const checked = (fields: Readonly<Record<string, FieldKind>>): Checked => Object.entries(fields).map(([k, kind]) => [k, CHECKS[kind]] as const);
const START_CHECKS = checked(START_FIELDS);
const END_CHECKS = checked(END_FIELDS);

/** A zod object's output for `v`, its fields checked by kind: unknown keys dropped, the others in the shape's order. */
function fieldsOf(v: unknown, fields: Checked): Obj {
  const from = obj(v);
  const out: Obj = {};
  for (const [k, check] of fields) {
    const value = check(from[k]);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

function itemOf(v: unknown): Obj {
  const item = obj(v);
  const req = obj(item['req']);
  if (item['mode'] === 'start') return { mode: 'start', req: { start: fieldsOf(req['start'], START_CHECKS) } };
  if (item['mode'] === 'end') return { mode: 'end', req: { end: fieldsOf(req['end'], END_CHECKS) } };
  return fail();
}

/**
 * Checks an upsert_batch body (already JSON-parsed) without zod, for the common case of a valid body.
 * Sound by design: it accepts only bodies `CallUpsertBatchReq` accepts, and returns the same value zod
 * would (unknown keys dropped, `looseObject` keys reordered as zod does); anything unusual returns
 * `undefined` and the caller validates with zod, which also builds the 422 detail.
 *
 * @param data - the parsed request body.
 * @returns zod's output for `data`, or `undefined` when zod must decide.
 */
export function fastParseUpsertBatch(data: unknown): UpsertBatchBody | undefined {
  try {
    const body = obj(data);
    if (!Array.isArray(body['batch']) || body['batch'].length > LIMITS.maxBatchItems) return undefined;
    return { batch: body['batch'].map(itemOf) } as UpsertBatchBody;
  } catch (err) {
    if (err === NOT_PLAIN) return undefined;
    throw err;
  }
}
