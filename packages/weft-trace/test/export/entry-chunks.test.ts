import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Entry } from '../../src/export/entry.js';
import { batchBody, packedEntry } from '../../src/export/entry-chunks.js';

const reference = (batch: readonly Entry[]): string => `{"batch":[${batch.map((e) => e.json).join(',')}]}`;

it('a batch body holds the entries in order, packed or not, across shared buffers and in any selection of them', () => {
  const text = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 50 }), fc.constant('x'.repeat(20_000)), fc.constant('é'.repeat(9_000)));
  fc.assert(
    fc.property(fc.array(text, { minLength: 1, maxLength: 120 }), fc.array(fc.boolean(), { maxLength: 120 }), (texts, skip) => {
      const entries = texts.map((t, i) => {
        const json = JSON.stringify({ i, t });
        return packedEntry(json, Buffer.byteLength(json), { id: `c${i}`, end: false });
      });
      entries.forEach((e, i) => expect(e.json).toBe(JSON.stringify({ i, t: texts[i] })));
      const some = entries.filter((_, i) => !skip[i]); // a cut that left some out (held back or refused) breaks the runs
      for (const batch of [entries, some, [...entries].reverse()]) {
        const body = batchBody(batch);
        expect(body.toString('utf8')).toBe(reference(batch));
        expect(body.length).toBe(Buffer.byteLength(reference(batch)));
      }
    }),
    { numRuns: 200 },
  );
});

it('mixes packed entries with plain string entries (spool replay, feedback, truncated events)', () => {
  const a = packedEntry('{"a":1}', 7, undefined);
  const b: Entry = { json: '{"b":"ü"}', bytes: Buffer.byteLength('{"b":"ü"}') };
  const c = packedEntry('{"c":3}', 7, undefined);
  expect(batchBody([a, b, c]).toString()).toBe('{"batch":[{"a":1},{"b":"ü"},{"c":3}]}');
  expect(batchBody([]).toString()).toBe('{"batch":[]}');
});

it('a call event is packed as JSON.stringify writes its item, byte length included, ASCII or not, small or large', async () => {
  const { callEventEntry } = await import('../../src/export/call-entry.js');
  const text = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 50 }), fc.constant('\ud800'), fc.constant('ÿ'.repeat(300)), fc.constant('é'.repeat(9_000)), fc.constant('x'.repeat(20_000)));
  fc.assert(
    fc.property(fc.constantFrom('start' as const, 'end' as const), fc.array(text, { minLength: 1, maxLength: 40 }), (mode, texts) => {
      const entries = texts.map((t, i) => {
        const event = { project_id: 'p/q', id: `c${i}`, inputs: { t }, output: t };
        const entry = mode === 'start' ? callEventEntry('start', event as never, 1 << 20) : callEventEntry('end', event as never, 1 << 20);
        const json = JSON.stringify({ mode, req: { [mode]: event } });
        expect(entry!.json).toBe(json);
        expect(entry!.bytes).toBe(Buffer.byteLength(json));
        expect(entry!.call).toEqual({ id: `c${i}`, end: mode === 'end' });
        return entry!;
      });
      expect(batchBody(entries).toString('utf8')).toBe(reference(entries));
    }),
    { numRuns: 150 },
  );
});
