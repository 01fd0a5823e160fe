// Unit tests of ref extraction at insert time (the input_refs / output_refs filters read what it finds).
import { describe, expect, it } from 'vitest';
import { extractRefs } from '../../../src/server/calls/write/call-refs.js';

describe('extractRefs', () => {
  it('finds refs at any depth and inside longer strings, once each', () => {
    const a = 'svc:///e/p/object/ds:1';
    const b = 'svc:///e/p/call/123';
    expect(extractRefs({ x: [a, { y: `see ${b}, then (${a}).` }], n: 1, z: null })).toEqual([a, b]);
    expect(extractRefs('nothing here')).toEqual([]);
    expect(extractRefs(undefined)).toEqual([]);
  });
});
