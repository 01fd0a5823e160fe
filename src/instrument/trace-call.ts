/**
 * One traced invocation: sampling, starting the call, running the body in its context, and ending it by result shape.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { Call } from './call.js';
import { endCall } from './call-end.js';
import { CallHandle } from './call-handle.js';
import { captureAttributes, captureDisplayName, captureInputs } from './capture.js';
import { activeContext, runInContext, type TraceContext } from './context.js';
import { resolveName, type OpDefinition } from './op-definition.js';
import type { CallSink } from './sink.js';
import { streamKind, wrapStream, type StreamObserver } from './streams.js';
import { thenOf, watchThenable } from './thenable.js';
import { getTraceSettings, type TraceSettings } from './trace-settings.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunction = (...args: any[]) => any;

/** Called with the call as soon as it exists (used by `invoke`). */
export type OnCall = (call: Call) => void;

/**
 * Runs `fn` as a call of the op described by `op`, recorded through `sink`. A root call is sampled at
 * `sampleRate`; a trace left out runs in an "unsampled" context so nothing below it is recorded either.
 */
export function traceCall(fn: AnyFunction, op: OpDefinition, self: unknown, args: unknown[], sink: CallSink, onCall?: OnCall): unknown {
  const parentCtx = activeContext();
  if (parentCtx?.unsampled) return fn.apply(self, args);
  const settings = getTraceSettings();
  if (parentCtx?.call === undefined && !sampled(settings.sampleRate)) return runUnsampled(fn, self, args, parentCtx);
  if (op.resolveName) resolveName(op, self);
  const call = startCall(sink, op, args, parentCtx, settings);
  if (call === undefined) return fn.apply(self, args);
  onCall?.(call);
  const ctx: TraceContext = { ...parentCtx, call };
  return runInContext(ctx, runBody, fn, self, args, sink, op, call, settings, ctx);
}

function sampled(rate: number): boolean {
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
  failed(): void {}
  cancel(): void {}
}

/** Runs a root call that sampling left out, in a context marked unsampled (a returned stream's body too). */
function runUnsampled(fn: AnyFunction, self: unknown, args: unknown[], parentCtx: TraceContext | undefined): unknown {
  const ctx: TraceContext = { ...parentCtx, unsampled: true };
  const result = runInContext(ctx, applyFn, fn, self, args);
  const kind = streamKind(result);
  return kind ? wrapStream(kind, result, new ContextOnly(ctx)) : result;
}

/** Creates the call and queues its start event; `undefined` if anything in tracing failed. */
function startCall(sink: CallSink, op: OpDefinition, args: unknown[], ctx: TraceContext | undefined, settings: TraceSettings): Call | undefined {
  try {
    const call = new Call(sink.projectId, op.name, ctx?.call, ctx);
    const inputs = captureInputs(op, args, settings);
    const attributes = captureAttributes(op, ctx?.attributes, settings);
    sink.start(call.startEvent(inputs, attributes, captureDisplayName(op, args), sink.userId));
    return call;
  } catch (err) {
    diag.warn(`could not start a call of op "${op.name}": ${safeMessage(err)}`);
    return undefined;
  }
}

/** Runs the body inside the call's context `ctx`; ends the call now (value, throw) or later (thenable, stream). */
function runBody(fn: AnyFunction, self: unknown, args: unknown[], sink: CallSink, op: OpDefinition, call: Call, settings: TraceSettings, ctx: TraceContext): unknown {
  let result: unknown;
  try {
    result = fn.apply(self, args);
  } catch (err) {
    endCall(sink, op, call, settings, 'error', undefined, err);
    throw err;
  }
  if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
    const then = thenOf(result);
    if (then) return watchThenable(result, then, new CallHandle(sink, op, call, settings, ctx));
    const kind = streamKind(result);
    if (kind) return wrapStream(kind, result, new CallHandle(sink, op, call, settings, ctx));
  }
  endCall(sink, op, call, settings, 'success', result, undefined);
  return result;
}
