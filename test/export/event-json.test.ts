import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventItemJson } from '../../src/export/event-json.js';

/** What the exporter sent before: JSON.stringify of the item, and its UTF-8 length. */
function reference(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const json = JSON.stringify({ mode, req: { [mode]: event } });
  return { json, bytes: Buffer.byteLength(json) };
}

describe('eventItemJson', () => {
  it('writes the same text and byte length as JSON.stringify for any JSON-like event', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(undefined, NaN, Infinity, -0, 1e21, '\u{1F600}', '\ud800', 'a"b\\c\n', 'é', 'x'.repeat(200), 'é'.repeat(200), 'y'.repeat(70_000)),
      fc.date({ noInvalidDate: true }),
      fc.array(fc.constantFrom(undefined, () => 1, Symbol('s'))),
    );
    // a few keys that repeat across events (texts of keys are kept), ASCII or not, and any others
    const key = fc.oneof(fc.constantFrom('id', 'é', 'a"b', '\u{1F600}', '__proto__'), fc.string({ unit: 'grapheme' }), fc.string());
    fc.assert(
      fc.property(fc.constantFrom('start' as const, 'end' as const), fc.dictionary(key, value), (mode, event) => {
        expect(eventItemJson(mode, event)).toEqual(reference(mode, event));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes frozen values (shared summaries and attributes) the same on every use', () => {
    const leaf = Object.freeze({ status_counts: Object.freeze({ success: 1, error: 0 }) });
    const event = { project_id: 'p/q', id: 'x', ended_at: '2026-01-01T00:00:00.000Z', summary: leaf, output: { deep: { er: { and: { deeper: [1, { x: 'ü' }] } } } } };
    expect(eventItemJson('end', event)).toEqual(reference('end', event));
    expect(eventItemJson('end', event)).toEqual(reference('end', event));
  });

  it('calls toJSON and throws where JSON.stringify throws', () => {
    const event = { id: 'a', inputs: { when: new Date(0), custom: { toJSON: () => 'mine' } } };
    expect(eventItemJson('start', event)).toEqual(reference('start', event));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => eventItemJson('start', { inputs: cyclic })).toThrow();
    expect(() => eventItemJson('start', { inputs: { n: 1n } })).toThrow();
  });
});
