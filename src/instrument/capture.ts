/**
 * What a call records: inputs by parameter name, output, attributes, summary fields, display name and exception —
 * JSON-safe, redacted, masked, and never throwing.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { CallException } from '../schema/calls.js';
import type { InputKey } from './input-keys.js';
import type { OpDefinition } from './op-definition.js';
import { REDACTED } from './redact.js';
import { newWalk, serializeWith } from './serialize.js';
import type { TraceSettings } from './trace-settings.js';

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

/** Applies `init({ mask })` to a serialized value; a throwing mask yields {@link MASK_FAILED}. */
function masked(settings: TraceSettings, value: unknown): unknown {
  const mask = settings.mask;
  if (!mask) return value;
  try {
    return serializeWith(mask(value), settings.serialize);
  } catch (err) {
    diag.warn(`mask threw (the value is withheld): ${safeMessage(err)}`);
    return MASK_FAILED;
  }
}

/** Inputs by parameter name (`arg<i>` where unknown; a rest parameter gets the remaining args). */
export function captureInputs(op: OpDefinition, args: unknown[], settings: TraceSettings): Record<string, unknown> {
  const config = settings.serialize;
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
  return settings.mask ? asObject(masked(settings, inputs)) : inputs;
}

/** The recorded output: `postprocessOutput(value)` when given, serialized, redacted and masked. */
export function captureOutput(op: OpDefinition, value: unknown, settings: TraceSettings): unknown {
  const post = op.options.postprocessOutput;
  const out = post ? hook(op, 'postprocessOutput', () => post(value), '[postprocessOutput threw]') : value;
  return masked(settings, serializeWith(out, settings.serialize));
}

/** The `attributes` of a call: those of `withAttributes()` overlaid with the op's own, serialized and redacted. */
export function captureAttributes(op: OpDefinition, outer: Readonly<Record<string, unknown>> | undefined, settings: TraceSettings): Record<string, unknown> {
  const own = op.options.attributes;
  if (!own && !outer) return NO_ATTRIBUTES;
  const merged = outer && own ? { ...outer, ...own } : (own ?? outer);
  return asObject(serializeWith(merged, settings.serialize));
}

/** Summary fields from the op's `summarize` option, JSON-safe; `undefined` when none. */
export function captureSummary(op: OpDefinition, output: unknown, settings: TraceSettings): Record<string, unknown> | undefined {
  const summarize = op.options.summarize;
  if (!summarize) return undefined;
  const extra = hook(op, 'summarize', () => summarize(output), undefined);
  return extra === undefined ? undefined : asObject(serializeWith(extra, settings.serialize));
}

/** `display_name` of a call, from the `callDisplayName` option. */
export function captureDisplayName(op: OpDefinition, args: unknown[]): string | undefined {
  const d = op.options.callDisplayName;
  if (typeof d !== 'function') return d;
  return hook(op, 'callDisplayName', () => String(d(...args)), undefined);
}

/** `exception` of an end event: class name, message and stack, size-capped; never throws. */
export function describeError(err: unknown, settings: TraceSettings): CallException {
  const s = serializeWith(err, settings.serialize);
  if (err instanceof Error && s !== null && typeof s === 'object') {
    const e = s as { name?: unknown; message?: unknown; stack?: unknown };
    return { type: String(e.name), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : '' };
  }
  return { type: typeof err, message: typeof s === 'string' ? s : JSON.stringify(s) };
}
