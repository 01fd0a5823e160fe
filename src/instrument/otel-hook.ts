/**
 * The hook that puts ops in the OTel context when an OTel context manager is registered: a call's ids, parent and the span context its body runs in.
 * @module
 */
import { context, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import { newId } from '../internal/ids.js';
import { otelSpanId, otelTraceId, weftCallId, weftTraceId } from '../otel/otel-ids.js';
import { markWeftChild } from '../otel/span-filter.js';
import type { Call, CallIds } from './call.js';

export { otelContextRegistered } from '../internal/otel-global.js';

/** The last 64 bits of a fresh UUIDv7 (counter and random bits) as a span id. */
function freshSpanId(nowMs: number): string {
  const id = newId(nowMs);
  return id.slice(19, 23) + id.slice(24);
}

/**
 * Ids of a call starting while a context manager is registered, chosen so OTel and weft agree (see
 * `weft/otel`'s `weftCallId`): under an OTel span that is not the weft parent's own, the span is the parent
 * (and the call joins its trace); under a weft parent, the id is built from the trace and a fresh span id; a
 * root keeps its UUIDv7 (its last 64 bits are its span id). `undefined` means the default ids.
 */
export function bridgedIds(parent: Call | undefined, nowMs: number): CallIds | undefined {
  const sc = trace.getSpanContext(context.active());
  if (sc && trace.isSpanContextValid(sc) && (parent === undefined || sc.spanId !== otelSpanId(parent.id))) {
    markWeftChild(sc.spanId);
    return { id: weftCallId(sc.traceId, freshSpanId(nowMs)), traceId: weftTraceId(sc.traceId), parentId: weftCallId(sc.traceId, sc.spanId) };
  }
  const traceHex = parent && otelTraceId(parent.traceId);
  if (!parent || !traceHex) return undefined;
  return { id: weftCallId(traceHex, freshSpanId(nowMs)), traceId: parent.traceId, parentId: parent.id };
}

/** The span context standing for `call` in OTel (non-recording): its trace and span id, sampled. */
function spanContextOf(call: Call): SpanContext | undefined {
  const traceId = otelTraceId(call.traceId);
  const spanId = otelSpanId(call.id);
  return traceId && spanId ? { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false } : undefined;
}

/** Runs `fn(...args)` with `call` as the active OTel span, so spans started inside are its children. */
export function runInOtelSpan<A extends unknown[], R>(call: Call, fn: (...args: A) => R, ...args: A): R {
  const sc = spanContextOf(call);
  if (!sc) return fn(...args);
  return context.with(trace.setSpanContext(context.active(), sc), fn, undefined, ...args);
}
