/**
 * The W3C Trace Context `traceparent` header value: read and written for a weft call through the OTel id mapping of `otel-ids.ts`.
 * @module
 */
import { isSpanIdHex, isTraceIdHex, otelSpanId, otelTraceId, weftCallId } from './otel-ids.js';

/** The parts of a `traceparent` that weft uses. */
export interface TraceParent {
  /** The trace id, 32 lowercase hex digits. */
  traceId: string;
  /** The parent's span id, 16 lowercase hex digits. */
  spanId: string;
  /** The `sampled` flag (bit 0 of `trace-flags`). */
  sampled: boolean;
}

/** `version-traceid-parentid-flags`; a later version may append fields after a `-` (W3C Trace Context, section 3.2.4). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Reads a `traceparent` value; `undefined` when it is not one: not a string, version `ff`, an all-zero trace or
 * span id, or version `00` with anything after the flags.
 * @see https://www.w3.org/TR/trace-context/#traceparent-header
 */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!isTraceIdHex(traceId) || !isSpanIdHex(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/**
 * The `traceparent` (version `00`; the `sampled` flag set unless `sampled` is false: a trace the sender's sampling
 * leaves out) that names the call `callId` of trace `traceId`, or `undefined` when
 * the mapping of `otel-ids.ts` cannot carry it: the trace id must be UUID-shaped and the call id must be what
 * `weftCallId` gives for its trace and its last 64 bits (a trace's root, whose id is the trace id, or a call whose
 * ids were chosen by `instrument/otel-hook.ts` `bridgedIds`), so the receiver maps the span id back to this very id.
 */
export function traceparentOf(traceId: string, callId: string, sampled = true): string | undefined {
  const t = otelTraceId(traceId);
  const s = otelSpanId(callId);
  if (t === undefined || s === undefined || weftCallId(t, s) !== callId.toLowerCase()) return undefined;
  return `00-${t}-${s}-${sampled ? '01' : '00'}`;
}
