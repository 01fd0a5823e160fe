/**
 * What a call records: inputs by parameter name, output, display name and exception, all JSON-safe and never throwing.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { CallException } from '../schema/calls.js';
import type { OpOptions } from './op-options.js';
import { serialize } from './serialize.js';

/** Per-op data computed once, when the op is made. */
export interface OpMeta {
  name: string;
  options: OpOptions<unknown[], unknown>;
  names: (string | undefined)[];
}

/** Runs a user hook; on a throw, logs it and returns `fallback`. */
function hook<T>(meta: OpMeta, what: string, run: () => T, fallback: T): T {
  try {
    return run();
  } catch (err) {
    diag.warn(`${what} of op "${meta.name}" threw: ${safeMessage(err)}`);
    return fallback;
  }
}

/** A JSON object for `inputs`: a non-object from `postprocessInputs` is kept under `value`. */
function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
}

/** Inputs by parameter name (`arg<i>` where unknown; a rest parameter gets the remaining args). */
export function captureInputs(meta: OpMeta, args: unknown[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const name = meta.names[i];
    if (name?.startsWith('...')) {
      inputs[name.slice(3)] = serialize(args.slice(i));
      break;
    }
    inputs[name ?? `arg${i}`] = serialize(args[i]);
  }
  const post = meta.options.postprocessInputs;
  if (!post) return inputs;
  return asObject(serialize(hook(meta, 'postprocessInputs', () => post(inputs), { '[postprocessInputs threw]': true })));
}

/** The recorded output: `postprocessOutput(value)` when given, serialized. */
export function captureOutput(meta: OpMeta, value: unknown): unknown {
  const post = meta.options.postprocessOutput;
  if (!post) return serialize(value);
  return serialize(hook(meta, 'postprocessOutput', () => post(value), '[postprocessOutput threw]'));
}

/** `display_name` of a call, from the `callDisplayName` option. */
export function captureDisplayName(meta: OpMeta, args: unknown[]): string | undefined {
  const d = meta.options.callDisplayName;
  if (typeof d !== 'function') return d;
  return hook(meta, 'callDisplayName', () => String(d(...args)), undefined);
}

/** `exception` of an end event: class name, message and stack, size-capped; never throws. */
export function describeError(err: unknown): CallException {
  const s = serialize(err);
  if (err instanceof Error && s !== null && typeof s === 'object') {
    const e = s as { name?: unknown; message?: unknown; stack?: unknown };
    return { type: String(e.name), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : '' };
  }
  return { type: typeof err, message: typeof s === 'string' ? s : JSON.stringify(s) };
}
