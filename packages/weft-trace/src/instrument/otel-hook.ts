/**
 * The hook that puts ops in the OTel context when an OTel context manager is registered: a call's ids, parent and the span context its body runs in.
 * @module
 */
import { context, createContextKey, trace, TraceFlags, type Context, type Span, type SpanContext } from '@opentelemetry/api';
import { newId } from '../internal/ids.js';
import { weftCallId, weftTraceId } from '../internal/otel-ids.js';
import { markWeftChild } from '../internal/wanted-ancestors.js';
import type { Call, CallIds } from './call.js';
import { getSink } from './sink.js';

export { otelContextRegistered } from '../internal/otel-global.js';

/** The key `trace.setSpan()` uses (`createContextKey` makes the same symbol from the same description). */
const SPAN_KEY = createContextKey('OpenTelemetry Context Key SPAN');

/** The 32 hex digits of a UUID-shaped id (weft's ids always are; no check, this is the hot path). */
const hexOf = (uuid: string): string => uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);

/** The last 64 bits of a fresh UUIDv7 (counter and random bits) as a span id. */
function freshSpanId(nowMs: number): string {
  const id = newId(nowMs);
  return id.slice(19, 23) + id.slice(24);
}

/**
 * Ids of a call starting while a context manager is registered, chosen so OTel and weft agree (see
 * `weft-trace/otel`'s `weftCallId`): under an OTel span that is not the weft parent's own, the span is the parent
 * (and the call joins its trace); under a weft parent, the id is built from the trace and a fresh span id; a
 * root keeps its UUIDv7 (its last 64 bits are its span id). `undefined` means the default ids.
 */
export function bridgedIds(otelCtx: Context, parent: Call | undefined, nowMs: number): CallIds | undefined {
  const sc = trace.getSpanContext(otelCtx);
  if (sc && trace.isSpanContextValid(sc) && (parent === undefined || sc.spanId !== hexOf(parent.id).slice(16))) {
    markWeftChild(sc.spanId);
    return { id: weftCallId(sc.traceId, freshSpanId(nowMs)), traceId: weftTraceId(sc.traceId), parentId: weftCallId(sc.traceId, sc.spanId) };
  }
  if (!parent || parent.traceId.length !== 36) return undefined;
  return { id: weftCallId(hexOf(parent.traceId), freshSpanId(nowMs)), traceId: parent.traceId, parentId: parent.id };
}

/**
 * The non-recording span standing for a call in the OTel context. Its span context (trace id and span id
 * in hex, sampled unless `init({ sampling })` leaves the trace out whatever happens in it) is made only when OTel code asks for it, so an op whose body starts no span pays for the
 * context entry alone.
 */
class CallSpan implements Span {
  private sc: SpanContext | undefined;

  constructor(private readonly call: Call) {}

  spanContext(): SpanContext {
    if (this.sc === undefined) {
      const { id, traceId } = this.call;
      const ok = id.length === 36 && traceId.length === 36;
      this.sc = ok
        ? { traceId: hexOf(traceId), spanId: hexOf(id).slice(16), traceFlags: getSink()?.leavesOut?.(traceId) === true ? TraceFlags.NONE : TraceFlags.SAMPLED, isRemote: false }
        : { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: TraceFlags.NONE };
    }
    return this.sc;
  }
  setAttribute(): this { return this; }
  setAttributes(): this { return this; }
  addEvent(): this { return this; }
  addLink(): this { return this; }
  addLinks(): this { return this; }
  setStatus(): this { return this; }
  updateName(): this { return this; }
  end(): void {}
  isRecording(): boolean { return false; }
  recordException(): void {}
}

/** The active OTel context (read once per op, then handed to {@link bridgedIds} and {@link runInOtelSpan}). */
export function activeOtelContext(): Context {
  return context.active();
}

/** Runs `fn(...args)` in `otelCtx` with `call` as the active OTel span, so spans started inside are its children. */
export function runInOtelSpan<A extends unknown[], R>(otelCtx: Context, call: Call, fn: (...args: A) => R, ...args: A): R {
  return context.with(otelCtx.setValue(SPAN_KEY, new CallSpan(call)), fn, undefined, ...args);
}
