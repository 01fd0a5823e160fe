/**
 * The `weft-trace/otel` entry point: OTel spans become weft calls (`WeftSpanProcessor`, `WeftSpanExporter`),
 * the span filter, the attribute precedence table, the id mapping, and the span-to-call mapping itself (`spanToCall`,
 * which the span processor and weft-server's OTLP route both use).
 * @module
 */
export { WeftSpanExporter, WeftSpanProcessor, type ExportResultLike, type WeftSpanOptions } from './span-processor.js';
export { defaultSpanFilter, isGenAiSpan, type SpanFilter, type SpanFilterDecision } from './span-filter.js';
export { mapAttributes, type Convention, type MappedAttributes, type SpanUsage } from './attribute-table.js';
export { otelSpanId, otelTraceId, weftCallId, weftTraceId } from '../internal/otel-ids.js';
export type { SpanEventRecord, SpanRecord, StatusCode } from './span-record.js';
export { spanToCall } from './span-to-call.js';
export type { ReadableSpanLike } from './readable-span.js';
