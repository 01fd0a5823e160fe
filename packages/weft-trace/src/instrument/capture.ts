/**
 * What a call records: inputs by parameter name, output, attributes, summary fields, display name and exception —
 * JSON-safe, redacted, masked, and never throwing.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { InputKey } from './input-keys.js';
import type { OpDefinition } from './op-definition.js';
import { REDACTED } from './redact.js';
import { newWalk, serializeWith } from './serialize.js';
import { mediaMade } from './media-value.js';
import { locateMedia } from './media-where.js';
import type { TraceSettings } from './trace-settings.js';

/**
 * The `exception` of an end event as weft records it: the class name, message and stack, and for an
 * error that carries them (provider SDK errors such as the OpenAI and Anthropic SDKs' `APIError`s) its
 * HTTP `status`, its `code`, the provider's error type (`error_type`, the SDK's `type`) and `request_id`.
 */
export type RecordedException = {
  type: string;
  message: string;
  stack?: string;
  status?: number;
  code?: string | number;
  error_type?: string;
  request_id?: string;
};

/** What replaces a value when the `mask` function throws (fail closed: never the unmasked value). */
export const MASK_FAILED = '[mask threw: value withheld]';

/** The `attributes` of a call without any: one frozen object shared by all (events are never changed once made). */
const NO_ATTRIBUTES: Record<string, unknown> = Object.freeze({});

/** Runs a user hook; on a throw, logs it and returns `fallback`. */
function hook<T>(op: OpDefinition, what: string, run: () => T, fallback: T): T {
  try {
    return run();
  } catch (err) {
    diag.warn(`${what} of op "${op.name}" threw: ${safeMessage(err)}`);
    return fallback;
  }
}

/** A JSON object for `inputs`: a non-object is kept under `value`. */
function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
}

/**
 * Applies `init({ mask })` to a serialized value of `owner` (an op name, or `addFeedback`); a throwing
 * mask yields {@link MASK_FAILED} and is logged once per owner, not once per value.
 */
export function masked(settings: TraceSettings, owner: string, value: unknown): unknown {
  const mask = settings.mask;
  if (!mask) return value;
  try {
    return serializeWith(mask(value), settings.serialize);
  } catch (err) {
    diag.once(`mask:${owner}`, 'warn', `mask threw on a value of ${owner} (withheld; logged once per op): ${safeMessage(err)}`);
    return MASK_FAILED;
  }
}

/** Inputs by parameter name (`arg<i>` where unknown; a rest parameter gets the remaining args). */
export function captureInputs(op: OpDefinition, args: unknown[], settings: TraceSettings): Record<string, unknown> {
  const config = settings.serialize;
  const made = mediaMade();
  const keys = op.inputKeys.forArgs(args.length, config.redactor);
  let inputs: Record<string, unknown> = {};
  // Several arguments share one size budget (maxTotalSize is per call's inputs, not per argument).
  const walk = args.length > 1 ? newWalk(config) : undefined;
  for (let i = 0; i < args.length; i++) {
    const { key, rest, secret } = keys[i] as InputKey;
    inputs[key] = secret ? REDACTED : serializeWith(rest ? args.slice(i) : args[i], config, walk);
    if (rest) break;
  }
  const post = op.options.postprocessInputs;
  if (post) {
    const fallback = { '[postprocessInputs threw]': true };
    inputs = asObject(serializeWith(hook(op, 'postprocessInputs', () => post(inputs), fallback), config));
  }
  return mediaMade() === made ? maskedInputs(op, inputs, settings) : placedMedia(maskedInputs(op, placedMedia(inputs), settings));
}

function maskedInputs(op: OpDefinition, inputs: Record<string, unknown>, settings: TraceSettings): Record<string, unknown> {
  return settings.mask ? asObject(masked(settings, owner(op), inputs)) : inputs;
}

/** `value`, its media values told where they are in it (before `mask`, which sees them, and after). */
function placedMedia<T>(value: T): T {
  locateMedia(value);
  return value;
}

/** The recorded output: `postprocessOutput(value)` when given, serialized, redacted and masked. */
export function captureOutput(op: OpDefinition, value: unknown, settings: TraceSettings): unknown {
  const post = op.options.postprocessOutput;
  const out = post ? hook(op, 'postprocessOutput', () => post(value), '[postprocessOutput threw]') : value;
  const made = mediaMade();
  const recorded = serializeWith(out, settings.serialize);
  return mediaMade() === made ? masked(settings, owner(op), recorded) : placedMedia(masked(settings, owner(op), placedMedia(recorded)));
}

/** The `attributes` of a call: those of `withAttributes()` overlaid with the op's own, serialized, redacted and masked. */
export function captureAttributes(op: OpDefinition, outer: Readonly<Record<string, unknown>> | undefined, settings: TraceSettings): Record<string, unknown> {
  const own = op.options.attributes;
  if (!own && !outer) return NO_ATTRIBUTES;
  const merged = outer && own ? { ...outer, ...own } : (own ?? outer);
  const attributes = asObject(serializeWith(merged, settings.serialize));
  return settings.mask ? asObject(masked(settings, owner(op), attributes)) : attributes;
}

/**
 * Summary fields from the op's `summarize` option, JSON-safe, redacted and masked; `undefined` when none.
 * `mask` sees the fields without `usage`: usage numbers are added up the tree and pass unmasked.
 */
export function captureSummary(op: OpDefinition, output: unknown, settings: TraceSettings): Record<string, unknown> | undefined {
  const summarize = op.options.summarize;
  if (!summarize) return undefined;
  const extra = hook(op, 'summarize', () => summarize(output), undefined);
  if (extra === undefined) return undefined;
  const fields = asObject(serializeWith(extra, settings.serialize));
  if (!settings.mask) return fields;
  const { usage, ...rest } = fields;
  const result = Object.keys(rest).length > 0 ? asObject(masked(settings, owner(op), rest)) : {};
  delete result.usage;
  if (usage !== undefined) result.usage = usage;
  return result;
}

/** `display_name` of a call, from the `callDisplayName` option. */
export function captureDisplayName(op: OpDefinition, args: unknown[]): string | undefined {
  const d = op.options.callDisplayName;
  if (typeof d !== 'function') return d;
  return hook(op, 'callDisplayName', () => String(d(...args)), undefined);
}

/**
 * `exception` of an end event: class name, message and stack, size-capped, masked; never throws. `mask`
 * receives the object `{type, message, stack}` (`stack` absent for a thrown non-Error) and what it returns
 * is recorded: its `type`, `message` and `stack` (strings; any other value stands for the message). When
 * `mask` throws, the message and stack are withheld and the type is kept.
 */
export function describeError(err: unknown, settings: TraceSettings, opName = 'an op'): RecordedException {
  const s = serializeWith(err, settings.serialize);
  let ex: RecordedException;
  if (err instanceof Error && s !== null && typeof s === 'object') {
    const e = s as { name?: unknown; message?: unknown; stack?: unknown };
    ex = { type: className(err, e.name), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : '' };
  } else {
    ex = { type: typeof err, message: typeof s === 'string' ? s : JSON.stringify(s) };
  }
  const recorded = settings.mask ? maskException(settings, `op "${opName}"`, ex) : ex;
  return err instanceof Error ? { ...recorded, ...errorFacts(err) } : recorded;
}

/**
 * The class of an error: its `name`, unless that is the generic `Error` its class did not override (the
 * OpenAI and Anthropic SDKs' `BadRequestError` keeps `name` "Error"); then its constructor's name.
 */
function className(err: Error, name: unknown): string {
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  if (name === 'Error' && typeof ctor === 'string' && ctor !== '' && ctor !== 'Error') return ctor;
  return String(name);
}

/**
 * What an error tells of the request behind it, read without running user code (own data properties
 * only): `status` (a number), `code`, the provider's error `type` (as `error_type`) and `requestID` /
 * `request_id` (the provider SDKs' request id, from the `x-request-id` or `request-id` header).
 */
function errorFacts(err: Error): Partial<RecordedException> {
  const own = (key: string): unknown => {
    const d = Object.getOwnPropertyDescriptor(err, key);
    return d && 'value' in d ? d.value : undefined;
  };
  const out: Partial<RecordedException> = {};
  const status = own('status');
  if (typeof status === 'number' && Number.isInteger(status)) out.status = status;
  const code = own('code');
  if ((typeof code === 'string' && code !== '') || (typeof code === 'number' && Number.isFinite(code))) out.code = code;
  const type = own('type');
  if (typeof type === 'string' && type !== '') out.error_type = type;
  const requestId = own('requestID') ?? own('request_id');
  if (typeof requestId === 'string' && requestId !== '') out.request_id = requestId;
  return out;
}

/** Runs `mask` on an exception `{type, message, stack}`; see {@link describeError}. */
function maskException(settings: TraceSettings, who: string, ex: RecordedException): RecordedException {
  const m = masked(settings, who, { ...ex });
  if (m === MASK_FAILED) return ex.stack === undefined ? { type: ex.type, message: MASK_FAILED } : { type: ex.type, message: MASK_FAILED, stack: '' };
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return { type: ex.type, message: typeof m === 'string' ? m : JSON.stringify(m) };
  const r = m as { type?: unknown; message?: unknown; stack?: unknown };
  const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
  const out: RecordedException = { type: r.type === undefined ? ex.type : text(r.type), message: text(r.message) };
  if (r.stack !== undefined) out.stack = text(r.stack);
  return out;
}

/** A feedback payload as sent: JSON-safe, redacted and masked (a mask failure is logged once, as `addFeedback`). */
export function captureFeedbackPayload(payload: Record<string, unknown>, settings: TraceSettings): Record<string, unknown> {
  const p = asObject(serializeWith(payload, settings.serialize));
  return settings.mask ? asObject(masked(settings, 'addFeedback', p)) : p;
}

/** How a mask failure names the op in its one warning. */
function owner(op: OpDefinition): string {
  return `op "${op.name}"`;
}
