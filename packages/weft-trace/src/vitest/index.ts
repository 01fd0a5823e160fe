/**
 * The `weft-trace/vitest` entry point: evaluations as vitest suites (`describeEval`, `evalTest`), each file's suite recorded as one evaluation run. Imports vitest (an optional peer dependency); the main `weft-trace` entry never does.
 * @module
 */
import * as vitest from 'vitest';
import { useVitest } from './vitest-api.js';

useVitest(vitest);

export { describeEval, evalTest, type DescribeEvalOptions } from './describe-eval.js';
export type { Threshold } from './row-verdict.js';
