/**
 * `weft-trace/vitest` without vitest: describeEval() and evalTest() with {@link useVitest}, for the Node.js ESM entry
 * written by build/finish.mjs, which imports vitest and hands it to this CommonJS build (one SDK instance under
 * Node.js: docs/packaging.md). Not an export of the package.
 * @module
 */
export { describeEval, evalTest, type DescribeEvalOptions } from './describe-eval.js';
export type { Threshold } from './row-verdict.js';
export { useVitest } from './vitest-api.js';
