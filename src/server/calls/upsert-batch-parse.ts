/**
 * Fast structural check of a `/call/upsert_batch` body: zod's exact output for a valid body, else `undefined` so zod decides.
 * @module
 */
import type { z } from 'zod';
import type { CallUpsertBatchReq } from '../../schema/calls.js';
import { LIMITS } from '../../schema/limits.js';
import { isProjectId } from '../../schema/project-id.js';
import { DATE_TIME_PATTERN as DATE_TIME } from '../db/timestamps.js';

/** The validated body (zod output of `CallUpsertBatchReq`). */
export type UpsertBatchBody = z.output<typeof CallUpsertBatchReq>;
type Obj = Record<string, unknown>;


const START_KEYS = ['project_id', 'op_name', 'started_at', 'attributes', 'inputs', 'display_name', 'id', 'otel_dump', 'parent_id',
  'thread_id', 'trace_id', 'turn_id', 'svc_run_id', 'svc_run_step', 'svc_user_id'] as const;
const START_OPT_STRINGS = ['display_name', 'id', 'parent_id', 'thread_id', 'trace_id', 'turn_id', 'svc_run_id', 'svc_user_id'] as const;
const END_KEYS = ['project_id', 'id', 'ended_at', 'output', 'exception', 'summary', 'display_name'] as const;
const EXCEPTION_KEYS = ['type', 'message', 'stack'];
const SUMMARY_KEYS = ['usage', 'status_counts'];
const USAGE_KEYS = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'requests'];

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

function projectId(v: unknown): void {
  if (!isProjectId(v)) fail();
}

function optStr(v: unknown): void {
  if (v !== undefined && v !== null && typeof v !== 'string') fail();
}

function optNum(v: unknown): void {
  if (v !== undefined && typeof v !== 'number') fail();
}

function dateTime(v: unknown): void {
  if (!DATE_TIME.test(str(v))) fail();
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

function startOf(v: unknown): Obj {
  const s = obj(v);
  projectId(s['project_id']);
  str(s['op_name'], 1);
  dateTime(s['started_at']);
  obj(s['attributes']);
  obj(s['inputs']);
  if (s['otel_dump'] !== undefined && s['otel_dump'] !== null) obj(s['otel_dump']);
  for (const k of START_OPT_STRINGS) optStr(s[k]);
  const step = s['svc_run_step'];
  if (step !== undefined && step !== null && !Number.isSafeInteger(step)) fail();
  return pick(s, START_KEYS);
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

function endOf(v: unknown): Obj {
  const e = obj(v);
  projectId(e['project_id']);
  str(e['id'], 1);
  dateTime(e['ended_at']);
  optStr(e['display_name']);
  const out = pick(e, END_KEYS);
  if (e['exception'] !== undefined) out['exception'] = exceptionOf(e['exception']);
  out['summary'] = summaryOf(e['summary']);
  return out;
}

function itemOf(v: unknown): Obj {
  const item = obj(v);
  const req = obj(item['req']);
  if (item['mode'] === 'start') return { mode: 'start', req: { start: startOf(req['start']) } };
  if (item['mode'] === 'end') return { mode: 'end', req: { end: endOf(req['end']) } };
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
