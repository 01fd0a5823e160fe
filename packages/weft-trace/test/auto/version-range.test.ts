// inRange(): the two range forms of the instrumentation table, `>=A <B` and `^A.B.C`.
import { expect, it } from 'vitest';
import { inRange } from '../../src/auto/version-range.js';

it('reads >=low <high and ^x.y.z (0.x up to the next minor) as semver does for releases', () => {
  expect(inRange('6.49.0', '>=4 <8')).toBe(true);
  expect(inRange('8.0.0', '>=4 <8')).toBe(false);
  expect(inRange('3.9.9', '>=4 <8')).toBe(false);
  expect(inRange('0.30.0', '>=0.30.0 <2')).toBe(true);
  expect(inRange('0.29.9', '>=0.30.0 <2')).toBe(false);
  expect(inRange('1.32.2', '^1.0.0')).toBe(true);
  expect(inRange('2.0.0', '^1.0.0')).toBe(false);
  expect(inRange('0.20.5', '^0.20.0')).toBe(true);
  expect(inRange('0.21.0', '^0.20.0')).toBe(false);
  expect(inRange('7.0.0-beta.1', '>=4 <8')).toBe(true);
  expect(inRange('not a version', '>=4 <8')).toBe(false);
  expect(inRange('5.0.0', '~5')).toBe(false);
});
