/**
 * One traced invocation: sampling, starting the call, running the body in its context, and handing the result to the call by its shape.
 * @module
 */
import { startCall, type ActiveCall } from './active-call.js';
import type { Call } from './call.js';
import { runInContext, type TraceContext } from './context.js';
import { parentContext } from './framework-context.js';
import { resolveName, type OpDefinition } from './op-definition.js';
import { activeOtelContext, otelContextRegistered, runInOtelSpan } from './otel-hook.js';
import type { CallSink } from './sink.js';
import { streamKind, wrapStream, type StreamObserver } from './streams.js';
import { thenOf, watchThenable } from './thenable.js';
import { getTraceSettings } from './trace-settings.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunction = (...args: any[]) => any;

/** Called with the call as soon as it exists (used by `invoke`). */
export type OnCall = (call: Call) => void;

/**
 * Runs `fn` as a call of `op`, recorded through `sink`. A root call is sampled at
 * `sampleRate`; a trace left out runs in an "unsampled" context so nothing below it is recorded either.
 */
export function traceCall(fn: AnyFunction, op: OpDefinition, self: unknown, args: unknown[], sink: CallSink, onCall?: OnCall): unknown {
  const parentCtx = parentContext();
  if (parentCtx?.unsampled) return fn.apply(self, args);
  const settings = getTraceSettings();
  if (parentCtx?.call === undefined && !sampled(settings.sampleRate)) return runUnsampled(fn, self, args, parentCtx);
  if (op.resolveName) resolveName(op, self);
  const otelCtx = otelContextRegistered() ? activeOtelContext() : undefined;
  const active = startCall(op, args, sink, settings, parentCtx, otelCtx);
  if (active === undefined) return fn.apply(self, args);
  onCall?.(active.call);
  if (otelCtx) return runInOtelSpan(otelCtx, active.call, runInContext, active.ctx, runBody, fn, self, args, active);
  return runInContext(active.ctx, runBody, fn, self, args, active);
}

/** Whether a root call is recorded at sampling rate `rate` (0..1). */
export function sampled(rate: number): boolean {
  return rate >= 1 || (rate > 0 && Math.random() < rate);
}

function applyFn(fn: AnyFunction, self: unknown, args: unknown[]): unknown {
  return fn.apply(self, args);
}

/** Observes nothing; only carries the unsampled context into a returned stream's `next()` calls. */
class ContextOnly implements StreamObserver {
  constructor(readonly ctx: TraceContext) {}
  chunk(): void {}
  complete(): void {}
  fail(): void {}
  cancel(): void {}
}

/** Runs a root call that sampling left out, in a context marked unsampled (a returned stream's body too). */
function runUnsampled(fn: AnyFunction, self: unknown, args: unknown[], parentCtx: TraceContext | undefined): unknown {
  const ctx: TraceContext = { ...parentCtx, unsampled: true };
  const result = runInContext(ctx, applyFn, fn, self, args);
  const kind = streamKind(result);
  return kind ? wrapStream(kind, result, new ContextOnly(ctx)) : result;
}

/**
 * Runs the body inside the call's context; the call ends now (value, throw) or later, when a returned
 * thenable settles or a returned stream is finished.
 */
export function runBody(fn: AnyFunction, self: unknown, args: unknown[], active: ActiveCall): unknown {
  let result: unknown;
  try {
    result = fn.apply(self, args);
  } catch (err) {
    active.fail(err);
    throw err;
  }
  if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
    const then = thenOf(result);
    if (then) return watchThenable(result, then, active);
    const kind = streamKind(result);
    if (kind) return wrapStream(kind, result, active);
  }
  active.succeed(result);
  return result;
}
