/**
 * The vitest functions describeEval() uses, handed in by the entry that imports vitest (`index.ts`, or the Node.js ESM
 * entry that loads the CommonJS build: vitest refuses `require()`, so that build never imports it itself; see
 * docs/packaging.md, "One instance under Node.js").
 * @module
 */
import type { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** What describeEval() calls of vitest: the suite, its hooks, its tests, and `expect.getState()` for the file's path. */
export interface VitestApi {
  afterAll: typeof afterAll;
  beforeAll: typeof beforeAll;
  describe: typeof describe;
  expect: typeof expect;
  test: typeof test;
}

let api: VitestApi | undefined;

/** Hands in vitest's functions; the last call wins (one vitest per process). */
export function useVitest(vitest: VitestApi): void {
  api = vitest;
}

/**
 * vitest's functions, as handed in.
 * @throws Error when no entry handed them in: `weft-trace/vitest` was loaded with `require()` outside vitest.
 */
export function vitestApi(): VitestApi {
  if (api) return api;
  throw new Error("weft-trace/vitest: vitest was not loaded; import 'weft-trace/vitest' (ESM) from a vitest test file");
}
