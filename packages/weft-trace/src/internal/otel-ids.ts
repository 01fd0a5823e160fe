/**
 * How OpenTelemetry ids map to weft's wire ids: 128-bit trace ids and 64-bit span ids become UUID-shaped strings.
 * @module
 */

/**
 * The mapping (deterministic and reversible, so a span's start and end, sent apart, land on one call, and a
 * parent named by id alone is found):
 *
 * - trace id (32 hex digits) -> `trace_id`: the same 128 bits in the 8-4-4-4-12 UUID layout, lowercase. A weft
 *   trace id (a UUIDv7) read back without its dashes is a valid OTel trace id, so the mapping runs both ways.
 * - span id (16 hex digits) of trace T -> call `id`: the first 64 bits of T followed by the 64 span-id bits,
 *   in the UUID layout (`tttttttt-tttt-tttt-ssss-ssssssssssss`). Span ids are unique within a trace, the trace
 *   prefix keeps them apart across traces, and the string passes the wire's "UUID-like" check (8-4-4-4-12 hex).
 *   It is not a UUIDv7: its version nibble is whatever the trace id holds.
 * - parent span id -> `parent_id` by the same rule; a span without a valid parent is a trace root.
 *
 * The spec's call ids are plain strings; the local server takes any non-empty string.
 */
const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const ZERO16 = '0000000000000000';
const ZERO32 = ZERO16 + ZERO16;

/** True for a valid OTel trace id: 32 lowercase hex digits, not all zero (W3C Trace Context). */
export function isTraceIdHex(id: string): boolean {
  return HEX32.test(id) && id !== ZERO32;
}

/** True for a valid OTel span id: 16 lowercase hex digits, not all zero. */
export function isSpanIdHex(id: string): boolean {
  return HEX16.test(id) && id !== ZERO16;
}

/** `trace_id` of an OTel trace id (32 hex digits): the UUID layout of the same bits. */
export function weftTraceId(traceIdHex: string): string {
  const t = traceIdHex.toLowerCase();
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20, 32)}`;
}

/** The OTel trace id (32 hex digits) of a weft `trace_id` in the UUID layout; `undefined` when it is not one. */
export function otelTraceId(weftId: string): string | undefined {
  const hex = weftId.replaceAll('-', '').toLowerCase();
  return weftId.length === 36 && isTraceIdHex(hex) ? hex : undefined;
}

/** Call `id` of span `spanIdHex` in trace `traceIdHex`: the trace's first 64 bits, then the span's 64. */
export function weftCallId(traceIdHex: string, spanIdHex: string): string {
  const t = traceIdHex.toLowerCase();
  const s = spanIdHex.toLowerCase();
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${s.slice(0, 4)}-${s.slice(4, 16)}`;
}

/** The span id (16 hex digits) a call id carries: its last 64 bits. `undefined` when the id is not UUID-shaped. */
export function otelSpanId(callId: string): string | undefined {
  if (callId.length !== 36) return undefined;
  const hex = callId.slice(19, 23) + callId.slice(24);
  return isSpanIdHex(hex.toLowerCase()) ? hex.toLowerCase() : undefined;
}
