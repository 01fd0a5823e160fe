// @weft-test: runtime
// serialize(): a leaf (number, boolean, string, null, undefined, bigint, symbol) comes out the same whether alone (the fast path) or inside an array (the walk).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DEFAULT_LIMITS, serialize, type SerializeOptions } from '../../src/instrument/serialize.js';

const leaf = fc.oneof(
  fc.double(), fc.integer(), fc.constantFrom(-0, NaN, Infinity, -Infinity), fc.boolean(),
  fc.string({ maxLength: 40 }), fc.constantFrom(null, undefined), fc.bigInt(), fc.string().map((d) => Symbol(d)),
);
const limits: fc.Arbitrary<SerializeOptions | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ maxStringLength: fc.integer({ min: 0, max: 30 }), maxTotalSize: fc.integer({ min: -5, max: 60 }) }),
);

it('gives the same value for a leaf alone as for the same leaf inside an array', () => {
  fc.assert(fc.property(leaf, limits, (v, options) => {
    const alone = serialize(v, options);
    // The array and its item take 3 of the size budget before the leaf: give them that much more.
    const budget = (options?.maxTotalSize ?? DEFAULT_LIMITS.maxTotalSize) + 3;
    const inArray = serialize([v], { ...options, maxTotalSize: budget }) as unknown[] | string;
    if (Array.isArray(inArray)) expect(alone).toStrictEqual(inArray[0]);
    else expect(alone).toBe(inArray); // no budget at all: both are the size marker
  }), { numRuns: 5_000 });
});
