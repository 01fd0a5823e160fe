// @weft-test: isolated runtime (the first call before any init(), the process's state at its start)
// The process-wide registry: one sealed object under the versioned Symbol.for key, with the slot names every copy of weft shares, reused when another copy made it.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { getGlobal, GLOBAL_MAJOR, VERSION, type WeftGlobal } from '../../src/internal/global.js';

const KEY = Symbol.for(`weft.global.v${GLOBAL_MAJOR}`);
const host = globalThis as typeof globalThis & { [KEY]?: WeftGlobal };
const original = getGlobal();

afterEach(() => {
  Object.defineProperty(host, KEY, { value: original, enumerable: false, configurable: true, writable: false });
});

it('is one sealed object under Symbol.for("weft.global.v<major>") with the slots every copy expects', () => {
  const g = getGlobal();
  expect(getGlobal()).toBe(g);
  expect(host[KEY]).toBe(g);
  expect(Object.isSealed(g)).toBe(true);
  // The slot names are the shape shared with other copies (sealed): renaming one needs a new major.
  expect(Object.keys(g).sort()).toEqual(['exportStats', 'runtime', 'settings', 'storage', 'version']);
  expect(g.version).toBe(VERSION);
});

it('shares a registry another copy of the same major made, whatever its version', () => {
  const other = getGlobal();
  const made: WeftGlobal = Object.seal({ ...other, version: '0.0.1' });
  Object.defineProperty(host, KEY, { value: made, enumerable: false, configurable: true, writable: false });
  expect(getGlobal()).toBe(made);
});

it("writes the package's own version (VERSION is kept by hand: this is its check)", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(VERSION).toBe(pkg.version);
});
