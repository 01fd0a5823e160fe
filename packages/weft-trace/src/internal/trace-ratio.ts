/**
 * The head sampling decision of a trace, made from its trace id alone, so every process of a trace makes the same one.
 * @module
 */

/** 2^52: the last 13 hex digits of a trace id are read as a fraction of it. */
const SPAN = 2 ** 52;

/**
 * True when the trace `traceId` (a weft UUID or a 32-hex OTel trace id: the same digits) falls inside `rate` (0..1):
 * its last 13 hex digits (52 bits, random in a UUIDv7 and in W3C trace ids), read as a fraction, are below `rate`.
 * The idea of OpenTelemetry's `TraceIdRatioBasedSampler`: one decision per trace id, the same everywhere.
 * @see https://opentelemetry.io/docs/specs/otel/trace/sdk/#traceidratiobased
 */
export function keptByRate(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const tail = traceId.replaceAll('-', '').slice(-13);
  const n = parseInt(tail, 16);
  return Number.isFinite(n) && n / SPAN < rate;
}
