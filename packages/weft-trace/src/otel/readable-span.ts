/**
 * An OTel SDK span (`ReadableSpan` of `@opentelemetry/sdk-trace-base` 1.x and 2.x) read into a {@link SpanRecord}, typed structurally so weft needs no SDK package.
 * @module
 */
import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { hrTimeToMs, type SpanRecord, type StatusCode } from './span-record.js';

/**
 * What weft reads of an SDK span: the fields of `ReadableSpan` (sdk-trace-base 2.x names, with the 1.x
 * `parentSpanId` and `instrumentationLibrary` as fallbacks).
 */
export interface ReadableSpanLike {
  readonly name: string;
  readonly kind: SpanKind;
  spanContext(): SpanContext;
  readonly parentSpanContext?: SpanContext | undefined;
  readonly parentSpanId?: string | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: SpanStatus;
  readonly attributes: Attributes;
  readonly links: readonly Link[];
  readonly events: readonly { name: string; time: HrTime; attributes?: Attributes | undefined }[];
  readonly ended: boolean;
  readonly resource?: { readonly attributes: Attributes } | undefined;
  readonly instrumentationScope?: { readonly name: string; readonly version?: string | undefined } | undefined;
  readonly instrumentationLibrary?: { readonly name: string; readonly version?: string | undefined } | undefined;
}

/** The {@link SpanRecord} of an SDK span; `endMs` is `undefined` until the span has ended. */
export function fromReadableSpan(span: ReadableSpanLike): SpanRecord {
  const ctx = span.spanContext();
  const scope = span.instrumentationScope ?? span.instrumentationLibrary ?? { name: '' };
  return {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId,
    name: span.name,
    kind: span.kind,
    startMs: hrTimeToMs(span.startTime),
    endMs: span.ended ? hrTimeToMs(span.endTime) : undefined,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, timeMs: hrTimeToMs(e.time), attributes: e.attributes ?? {} })),
    links: span.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId, attributes: l.attributes ?? {} })),
    status: { code: span.status.code as StatusCode, message: span.status.message },
    resource: span.resource?.attributes ?? {},
    scope: { name: scope.name, version: scope.version },
  };
}
