// @weft-test: isolated runtime (the first call before any init(), the process's state at its start)
// The W3C traceparent read and written for MCP's params._meta: what is refused, and which call ids a traceparent can name.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/internal/ids.js';
import { weftCallId } from '../../src/internal/otel-ids.js';
import { parseTraceparent, traceparentOf } from '../../src/internal/traceparent.js';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S = '00f067aa0ba902b7';

describe('parseTraceparent', () => {
  it('reads version 00 and a later version with more fields; the sampled flag is bit 0', () => {
    expect(parseTraceparent(`00-${T}-${S}-01`)).toEqual({ traceId: T, spanId: S, sampled: true });
    expect(parseTraceparent(`00-${T}-${S}-00`)).toEqual({ traceId: T, spanId: S, sampled: false });
    expect(parseTraceparent(`01-${T}-${S}-03-later`)).toEqual({ traceId: T, spanId: S, sampled: true });
  });

  it('refuses what W3C Trace Context refuses', () => {
    for (const bad of [undefined, 42, '', `ff-${T}-${S}-01`, `00-${T}-${S}-01-extra`, `00-${'0'.repeat(32)}-${S}-01`, `00-${T}-${'0'.repeat(16)}-01`, `00-${T.toUpperCase()}-${S}-01`, `00-${T}-${S}`]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('traceparentOf', () => {
  it('names a trace root (its id is the trace id) and a call with bridged ids, so weftCallId gives the id back', () => {
    const root = newId(Date.now());
    const tp = traceparentOf(root, root) as string;
    const p = parseTraceparent(tp)!;
    expect(weftCallId(p.traceId, p.spanId)).toBe(root);
    const child = weftCallId(p.traceId, 'a1b2c3d4e5f60718');
    expect(traceparentOf(root, child)).toBe(`00-${p.traceId}-a1b2c3d4e5f60718-01`);
  });

  it('names no call whose id the mapping cannot carry (its first 64 bits are not the trace\'s)', () => {
    expect(traceparentOf(newId(Date.now()), newId(Date.now() + 1000))).toBeUndefined();
    expect(traceparentOf('not-a-uuid', 'x')).toBeUndefined();
  });
});
