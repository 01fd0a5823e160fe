import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../../src/schema/calls.js';
import { callEventEntry } from '../../src/export/call-entry.js';

/** Large enough that no event of these tests is truncated: the item is written as it is. */
const NO_LIMIT = 1 << 26;

/** The item text and UTF-8 length the exporter packs for an event (the live path: `callEventEntry`). */
function itemJson(mode: 'start' | 'end', event: object): { json: string; bytes: number } | undefined {
  const entry = mode === 'start'
    ? callEventEntry('start', event as StartedCallSchemaForInsert, NO_LIMIT)
    : callEventEntry('end', event as EndedCallSchemaForInsert, NO_LIMIT);
  return entry && { json: entry.json, bytes: entry.bytes };
}

/** What the exporter sent before: JSON.stringify of the item, and its UTF-8 length. */
function reference(mode: 'start' | 'end', event: object): { json: string; bytes: number } {
  const json = JSON.stringify({ mode, req: { [mode]: event } });
  return { json, bytes: Buffer.byteLength(json) };
}

describe('the item text of a call event (callEventEntry)', () => {
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
        expect(itemJson(mode, event)).toEqual(reference(mode, event));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes frozen values (shared summaries and attributes) the same on every use', () => {
    const leaf = Object.freeze({ status_counts: Object.freeze({ success: 1, error: 0 }) });
    const event = { project_id: 'p/q', id: 'x', ended_at: '2026-01-01T00:00:00.000Z', summary: leaf, output: { deep: { er: { and: { deeper: [1, { x: 'ü' }] } } } } };
    expect(itemJson('end', event)).toEqual(reference('end', event));
    expect(itemJson('end', event)).toEqual(reference('end', event));
  });

  it('calls toJSON, and gives no entry where JSON.stringify throws (the exporter counts the event as dropped)', () => {
    const event = { id: 'a', inputs: { when: new Date(0), custom: { toJSON: () => 'mine' } } };
    expect(itemJson('start', event)).toEqual(reference('start', event));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => JSON.stringify({ inputs: cyclic })).toThrow();
    expect(itemJson('start', { inputs: cyclic })).toBeUndefined();
    expect(() => JSON.stringify({ inputs: { n: 1n } })).toThrow();
    expect(itemJson('start', { inputs: { n: 1n } })).toBeUndefined();
  });
});
