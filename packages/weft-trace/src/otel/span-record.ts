/**
 * The span shape the mapping reads: what an SDK `ReadableSpan` and an OTLP span both reduce to.
 * @module
 */
import type { Attrs } from './genai-messages.js';

/** `SpanStatusCode` of `@opentelemetry/api` (and OTLP `Status.code`): 0 unset, 1 ok, 2 error. */
export type StatusCode = 0 | 1 | 2;

/** An event of a span (`exception` events carry `exception.type`, `exception.message`, `exception.stacktrace`). */
export interface SpanEventRecord {
  name: string;
  /** Unix time in ms (fractional). */
  timeMs: number;
  attributes: Attrs;
}

/** One finished (or just started) span, ids as lowercase hex, times as Unix ms (fractional). */
export interface SpanRecord {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** 16 hex digits; `undefined` for a root span. */
  parentSpanId: string | undefined;
  name: string;
  /** `SpanKind` number of `@opentelemetry/api` (0 internal, 1 server, 2 client, 3 producer, 4 consumer). */
  kind: number;
  startMs: number;
  /** `undefined` while the span runs. */
  endMs: number | undefined;
  attributes: Attrs;
  events: readonly SpanEventRecord[];
  links: readonly { traceId: string; spanId: string; attributes: Attrs }[];
  status: { code: StatusCode; message?: string | undefined };
  /** Resource attributes (`service.name`, ...). */
  resource: Attrs;
  /** The instrumentation scope that made the span. */
  scope: { name: string; version?: string | undefined };
}

/** Unix ms of an `HrTime` (`[seconds, nanoseconds]`, as `@opentelemetry/api` and the SDK give times). */
export function hrTimeToMs(t: readonly [number, number]): number {
  return t[0] * 1000 + t[1] / 1e6;
}
