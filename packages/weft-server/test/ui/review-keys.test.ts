// The review screen's keys as pure functions: a key per category label that never takes a screen key, and the score
// a digit stands for on scales of integers, of fractions, and without a step.
import { describe, expect, it } from 'vitest';
import { actionOf, labelKeys, scaleOf, scoreOfDigit } from '../../src/ui/queues/review-keys.js';

describe('review keys', () => {
  it('give each label its first free letter, never a screen key (j k u d s t)', () => {
    expect([...labelKeys(['formal', 'friendly', 'dull', 'sad'])]).toEqual([['formal', 'f'], ['friendly', 'r'], ['dull', 'l'], ['sad', 'a']]);
    expect(actionOf('j')).toBe('next');
    expect(actionOf('Enter')).toBe('submit');
    expect(actionOf('x')).toBeNull();
  });

  it('read a digit as the score itself when it is on the scale, else as the n-th value', () => {
    const stars = { name: 'q', type: 'score', description: '', min: 1, max: 5, step: 1 } as const;
    expect(scaleOf(stars)).toEqual([1, 2, 3, 4, 5]);
    expect([scoreOfDigit(stars, 4), scoreOfDigit(stars, 0), scoreOfDigit(stars, 7)]).toEqual([4, null, null]);
    const quarters = { name: 'q', type: 'score', description: '', min: 0, max: 1, step: 0.25 } as const;
    expect([0, 1, 2, 3, 5].map((d) => scoreOfDigit(quarters, d))).toEqual([0, 1, 0.25, 0.5, 1]);
    const free = { name: 'q', type: 'score', description: '', min: 0, max: 10 } as const;
    expect([scaleOf(free), scoreOfDigit(free, 7)]).toEqual([null, 7]);
  });
});
