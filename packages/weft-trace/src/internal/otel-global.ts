/**
 * What weft asks of OTel's global state without going through the SDK: is a context manager registered, is the active
 * span's trace left out upstream, and running code untraced.
 * @module
 */
import { context, createContextKey, trace, TraceFlags } from '@opentelemetry/api';
import { weftTraceId } from './otel-ids.js';

/** The global slot of `@opentelemetry/api` 1.x; `setGlobalContextManager()` puts the manager at its `context`. */
const API_SLOT = Symbol.for('opentelemetry.js.api.1');
const host = globalThis as typeof globalThis & { [API_SLOT]?: { context?: unknown } };

/**
 * The key `@opentelemetry/core`'s `suppressTracing()` sets (`createContextKey` makes the same symbol from the
 * same description), which OTel instrumentations honour by starting no span.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/**
 * True when an OTel context manager is registered: one property read of the API's global slot, so weft pays
 * nothing more when OTel is absent (`context.disable()` clears it again).
 */
export function otelContextRegistered(): boolean {
  return host[API_SLOT]?.context !== undefined;
}

/**
 * Runs `fn` with OTel tracing suppressed when a context manager is registered (weft's own HTTP requests, so an
 * HTTP or undici instrumentation does not record the export of spans as new spans, without end).
 */
export function untraced<T>(fn: () => T): T {
  if (!otelContextRegistered()) return fn();
  return context.with(context.active().setValue(SUPPRESS_TRACING, true), fn);
}

/**
 * True when the active OTel span context is in weft trace `traceId` (the UUID layout of its 32 hex digits, as
 * `bridgedIds` joins it) with its W3C `sampled` flag off: OTel's sampler or an extracted `traceparent` ending in `-00`
 * left the trace out upstream. False when no context manager is registered.
 * @see https://www.w3.org/TR/trace-context/#sampled-flag
 */
export function otelLeftOut(traceId: string): boolean {
  if (!otelContextRegistered()) return false;
  const sc = trace.getSpanContext(context.active());
  return sc !== undefined && (sc.traceFlags & TraceFlags.SAMPLED) === 0 && weftTraceId(sc.traceId) === traceId;
}
