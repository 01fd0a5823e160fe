/**
 * What weft asks of OTel's global state without going through the SDK: is a context manager registered, and running code untraced.
 * @module
 */
import { context, createContextKey } from '@opentelemetry/api';

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
