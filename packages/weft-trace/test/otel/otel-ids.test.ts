// The id mapping: OTel trace and span ids to weft's UUID-shaped ids and back, deterministic, and a weft root id mapping onto itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/internal/ids.js';
import { otelSpanId, otelTraceId, weftCallId, weftTraceId } from '../../src/internal/otel-ids.js';

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`)).filter((s) => !/^0+$/.test(s));
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('otel-ids', () => {
  it('maps trace and span ids to UUID-shaped ids and back', () => {
    fc.assert(fc.property(hex(32), hex(16), (traceId, spanId) => {
      const t = weftTraceId(traceId);
      const c = weftCallId(traceId, spanId);
      expect(t).toMatch(UUID_LIKE);
      expect(c).toMatch(UUID_LIKE);
      expect(otelTraceId(t)).toBe(traceId);
      expect(otelSpanId(c)).toBe(spanId);
      expect(weftCallId(traceId, spanId)).toBe(c);
    }));
  });

  it('keeps spans of different traces apart, and maps a weft root id (UUIDv7) onto itself', () => {
    expect(weftCallId('a'.repeat(32), '1'.repeat(16))).not.toBe(weftCallId('b'.repeat(32), '1'.repeat(16)));
    const root = newId();
    expect(weftCallId(otelTraceId(root)!, otelSpanId(root)!)).toBe(root);
  });

  it('refuses what is not an id', () => {
    expect(otelTraceId('not-a-uuid')).toBeUndefined();
    expect(otelTraceId('00000000-0000-0000-0000-000000000000')).toBeUndefined();
    expect(otelSpanId('x')).toBeUndefined();
  });
});
