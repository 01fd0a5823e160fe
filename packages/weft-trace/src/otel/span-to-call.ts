/**
 * One span to a call: ids mapped by `otel-ids`, attributes by the precedence table, status to `exception`, the raw span to `otel_dump`.
 * @module
 */
import type { CallException, EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { MappedAttributes } from './attribute-table.js';
import { mapSpan } from './genai-events.js';
import { isSpanIdHex, weftCallId, weftTraceId } from '../internal/otel-ids.js';
import type { SpanRecord } from './span-record.js';

/** Usage key when a span with token counts names no model. */
export const UNKNOWN_MODEL = 'unknown';

const iso = (ms: number): string => new Date(Math.floor(ms)).toISOString();

/** The raw span as `otel_dump` (spec field of `StartedCallSchemaForInsert`): ids in hex, times in ISO 8601 UTC. */
export function otelDump(span: SpanRecord): Record<string, unknown> {
  const dump: Record<string, unknown> = {
    name: span.name,
    kind: span.kind,
    trace_id: span.traceId,
    span_id: span.spanId,
    start_time: iso(span.startMs),
    attributes: span.attributes,
    status: span.status,
    resource: span.resource,
    scope: span.scope,
  };
  if (span.parentSpanId) dump.parent_span_id = span.parentSpanId;
  if (span.endMs !== undefined) dump.end_time = iso(span.endMs);
  if (span.events.length > 0) dump.events = span.events.map((e) => ({ name: e.name, time: iso(e.timeMs), attributes: e.attributes }));
  if (span.links.length > 0) dump.links = span.links;
  return dump;
}

/** The start item of a span's call: ids, `op_name` (the span name), `started_at`, inputs and attributes by the table, `otel_dump`. */
export function spanStart(span: SpanRecord, projectId: string, mapped: MappedAttributes = mapSpan(span)): StartedCallSchemaForInsert {
  const start: StartedCallSchemaForInsert = {
    project_id: projectId,
    id: weftCallId(span.traceId, span.spanId),
    trace_id: weftTraceId(span.traceId),
    op_name: span.name || '(unnamed span)',
    started_at: iso(span.startMs),
    inputs: mapped.inputs,
    attributes: mapped.attributes,
    otel_dump: otelDump(span),
  };
  if (span.parentSpanId && isSpanIdHex(span.parentSpanId)) start.parent_id = weftCallId(span.traceId, span.parentSpanId);
  return start;
}

/**
 * The exception of a span whose status is ERROR: type, message and stack of its last `exception` event
 * (OTel semantic conventions, "Exceptions"), else the status message. `undefined` unless the status is ERROR
 * (an exception recorded on a span that ended OK was handled).
 */
export function spanException(span: SpanRecord): CallException | undefined {
  if (span.status.code !== 2) return undefined;
  const event = span.events.findLast((e) => e.name === 'exception');
  const a = event?.attributes ?? {};
  const exception: { type: string; message: string; stack?: string } = {
    type: typeof a['exception.type'] === 'string' ? a['exception.type'] : 'Error',
    message: typeof a['exception.message'] === 'string' ? a['exception.message'] : (span.status.message ?? ''),
  };
  if (typeof a['exception.stacktrace'] === 'string') exception.stack = a['exception.stacktrace'];
  return exception;
}

/**
 * The end item of a span's call: `ended_at`, output by the table or the exception, and the summary (usage by
 * model, status count, and the `gen_ai.response.*` facts: a call's attributes go out with its start, so what
 * is known only at the end is summary, as the wrappers record it).
 */
export function spanEnd(span: SpanRecord, projectId: string, mapped: MappedAttributes = mapSpan(span)): EndedCallSchemaForInsert {
  const exception = spanException(span);
  const summary: Record<string, unknown> = { status_counts: { success: exception ? 0 : 1, error: exception ? 1 : 0 } };
  if (mapped.usage) summary.usage = { [mapped.model ?? UNKNOWN_MODEL]: { ...mapped.usage } };
  Object.assign(summary, mapped.response);
  const end: EndedCallSchemaForInsert = {
    project_id: projectId,
    id: weftCallId(span.traceId, span.spanId),
    ended_at: iso(span.endMs ?? span.startMs),
    summary,
  };
  if (exception) end.exception = exception;
  else if (mapped.output !== undefined) end.output = mapped.output;
  return end;
}

/**
 * A finished OTel span as the two items of a weft call (`weft-trace/otel`; the span processor sends them, weft-server's
 * OTLP route stores them): `start` and `end` as `POST /call/upsert_batch` takes them (service interface, endpoint 5), ids
 * from `weftCallId` / `weftTraceId`, times in ISO 8601 from the span's millisecond stamps, attributes mapped once
 * (`mapAttributes`). Throws nothing for a well-formed `SpanRecord`.
 *
 * @param span - the span, as `fromReadableSpan` or the OTLP decoder builds it.
 * @param projectId - the call's project, `<entity>/<project>`.
 */
export function spanToCall(span: SpanRecord, projectId: string): { start: StartedCallSchemaForInsert; end: EndedCallSchemaForInsert } {
  const mapped = mapSpan(span);
  return { start: spanStart(span, projectId, mapped), end: spanEnd(span, projectId, mapped) };
}
