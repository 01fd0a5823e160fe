// @weft-test: runtime
// serialize(): any value becomes JSON-safe without throwing or mutating; limits hold and every cut is marked (fast-check properties).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialize, type SerializeOptions } from '../../src/instrument/serialize.js';

const ALL: fc.ObjectConstraints = {
  withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true,
  withObjectString: true, withSparseArray: true, withTypedArray: true, withUnicodeString: true, maxDepth: 6,
};
const SMALL: SerializeOptions = { maxDepth: 3, maxStringLength: 20, maxItems: 5, maxBinaryBytes: 8, maxTotalSize: 400 };

class Point {
  constructor(public x: number, public y: number) {}
  get norm(): number { return Math.hypot(this.x, this.y); }
}

/** Values no generic arbitrary makes: cycles, proxies, throwing getters, class instances, functions, errors. */
const hostile: fc.Arbitrary<unknown> = fc.constantFrom(
  () => { const a: Record<string, unknown> = { n: 1 }; a.self = a; a.list = [a, { back: a }]; return a; },
  () => { const m = new Map<unknown, unknown>(); m.set('me', m); return m; },
  () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return { revoked: proxy, arr: [proxy] }; },
  () => new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('keys trap'); } }),
  () => ({ get bad() { throw new Error('getter threw'); }, fine: 1 }),
  () => Object.defineProperty({}, 'bad', { enumerable: true, get() { throw Symbol('not an error'); } }),
  () => new Point(3, 4),
  () => [function named() {}, () => 1, Symbol('s'), undefined, NaN, Infinity, -Infinity, -0, 10n ** 30n],
  () => Object.assign(new TypeError('bad input', { cause: new Error('root cause') }), { code: 'E_BAD', token: 'sekret' }),
  () => ({ buf: Buffer.from('hello world, binary'), ab: new ArrayBuffer(20), view: new DataView(new ArrayBuffer(4)) }),
  () => ({ toJSON() { throw new Error('toJSON threw'); } }),
  () => ({ when: new Date(Number.NaN), re: /a+b/gi, p: Promise.resolve(1), ws: new WeakSet() }),
).map((make) => make());

const anyValue = fc.oneof(fc.anything(ALL), hostile, fc.array(fc.oneof(fc.anything(ALL), hostile), { maxLength: 4 }));

function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(v).map(depthOf));
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); strings(x, out); }
  return out;
}

describe('serialize properties (fast-check)', () => {
  it('never throws and always produces JSON that round-trips to the same value', () => {
    fc.assert(fc.property(anyValue, (v) => {
      const out = serialize(v);
      const text = JSON.stringify(out);
      expect(typeof text).toBe('string');
      expect(JSON.parse(text)).toEqual(out);
    }), { numRuns: 400 });
  });

  it('never mutates its input', () => {
    fc.assert(fc.property(fc.clone(fc.anything(ALL), 2), ([a, b]) => {
      serialize(a, { redactKeys: ['a', 'b', 'key'] });
      // fc.stringify shows every part of a value (Dates, Maps, typed arrays, holes, prototypes) as text
      expect(fc.stringify(a)).toBe(fc.stringify(b));
    }), { numRuns: 300 });
  });

  it('stays within depth, item, string and total-size limits', () => {
    fc.assert(fc.property(anyValue, (v) => {
      const out = serialize(v, SMALL);
      // Map/Set/Error wrappers add at most two levels per level of the input.
      expect(depthOf(out)).toBeLessThanOrEqual(3 * (SMALL.maxDepth as number) + 3);
      for (const s of strings(out)) expect(s.length).toBeLessThanOrEqual(20 + '…[truncated 99999999 chars]'.length);
      const text = JSON.stringify(out);
      // escapes at most double a string; markers and brackets cost a bounded amount per level
      expect(text.length).toBeLessThanOrEqual(6 * (400 + 20 + 64 * 12));
    }), { numRuns: 400 });
  });
});

describe('serialize cases and markers', () => {
  it('marks cycles but not repeated references', () => {
    const shared = { v: 1 };
    const a: Record<string, unknown> = { shared, again: shared };
    a.self = a;
    expect(serialize(a)).toEqual({ shared: { v: 1 }, again: { v: 1 }, self: '[Circular]' });
  });

  it('converts odd leaves', () => {
    expect(serialize([undefined, NaN, Infinity, -Infinity, -0, 12n, Symbol('s'), function f() {}, new Date(0)])).toEqual(
      [null, 'NaN', 'Infinity', '-Infinity', 0, '12n', 'Symbol(s)', '[Function f]', '1970-01-01T00:00:00.000Z']);
    expect(serialize(new Map([['k', 1]]))).toEqual({ __type: 'Map', entries: [['k', 1]] });
    expect(serialize(new Set([1, 2]))).toEqual({ __type: 'Set', values: [1, 2] });
    expect(serialize(new Point(3, 4))).toEqual({ __class: 'Point', x: 3, y: 4 });
  });

  it('records errors with name, message, stack, cause and own fields', () => {
    const e = Object.assign(new TypeError('bad', { cause: new Error('root') }), { code: 'E1' });
    const out = serialize(e) as Record<string, unknown>;
    expect(out).toMatchObject({ name: 'TypeError', message: 'bad', code: 'E1', cause: { name: 'Error', message: 'root' } });
    expect(out.stack).toContain('bad');
  });

  it('caps binary data as base64 with its length', () => {
    const out = serialize(new Uint8Array(2000).fill(65)) as Record<string, unknown>;
    expect(out).toMatchObject({ __type: 'Uint8Array', byteLength: 2000, _weft_truncated: { original_bytes: 2000, limit_bytes: 1024 } });
    expect(Buffer.from(out.base64 as string, 'base64')).toHaveLength(1024);
    expect(serialize(Buffer.from('hi'))).toEqual({ __type: 'Buffer', byteLength: 2, base64: 'aGk=' });
  });

  it('marks every cut: depth, string length, items, keys, total size', () => {
    expect(serialize({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({ a: { b: '[MaxDepth]' } });
    expect(serialize('abcdef', { maxStringLength: 3 })).toBe('abc…[truncated 3 chars]');
    expect(serialize([1, 2, 3, 4], { maxItems: 2 })).toEqual([1, 2, '[truncated 2 items]']);
    expect(serialize({ a: 1, b: 2, c: 3 }, { maxItems: 1 })).toEqual({ a: 1, '…': '[truncated 2 keys]' });
    const big = serialize(Array.from({ length: 1000 }, (_, i) => `item-${i}-${'x'.repeat(90)}`), { maxTotalSize: 5000 }) as string[];
    expect(big.at(-1)).toBe('[truncated: size limit]');
    expect(JSON.stringify(big).length).toBeLessThan(5000 + 200);
  });

  it('survives throwing getters, throwing toJSON and revoked proxies', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const out = serialize({ get bad() { throw new Error('nope'); }, revoked: proxy, j: { toJSON() { throw new Error('tj'); } } });
    expect(out).toEqual({ bad: '[Threw: nope]', revoked: expect.stringMatching(/^\[Unreadable: /), j: '[Unreadable: tj]' });
  });

  it('redacts listed keys at any depth, matching words in longer keys but not plurals', () => {
    const out = serialize({
      apiKey: 'k1', nested: { 'x-api-key': 'k2', access_token: 't', Authorization: 'Bearer x', max_tokens: 100 },
      list: [{ password: 'p', passwordHint: 'h' }], usage: { prompt_tokens: 5 }, headers: new Map([['Cookie', 'c']]),
    }, { redactKeys: ['apiKey', 'token', 'authorization', 'password', 'cookie'] });
    expect(out).toEqual({
      apiKey: 'REDACTED', nested: { 'x-api-key': 'REDACTED', access_token: 'REDACTED', Authorization: 'REDACTED', max_tokens: 100 },
      list: [{ password: 'REDACTED', passwordHint: 'REDACTED' }], usage: { prompt_tokens: 5 },
      headers: { __type: 'Map', entries: [['Cookie', 'REDACTED']] },
    });
  });
});
