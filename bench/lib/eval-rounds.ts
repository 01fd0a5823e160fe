// What eval.ts and its child eval-child.ts share: the dataset size, the rounds, and what one child reports.
import { QUICK } from './table.js';

export const N = 1_000;
/** Alternating rounds per child process. */
export const ROUNDS = QUICK ? 3 : 5;
/** evaluate() runs before the timed rounds (what the parent counts as stored). */
export const WARM_UPS = 2;

/** What one child reports: µs of process CPU per row, one entry per round. */
export interface EvalRounds {
  /** The task and the two scorers called directly, awaited as evaluate() awaits them. */
  direct: number[];
  /** evaluate() with tracing off (`init({ enabled: false })`). */
  off: number[];
  /** The same four calls per row (row, task, two scorers) traced by plain op()s, flushed: the floor of recording a row. */
  floor: number[];
  /** The two feedback items per row evaluate() writes, serialized and POSTed with no tracer: the floor of writing them. */
  feedback: number[];
  /** evaluate(), traced, the final flush and usage read-back included. */
  evaluate: number[];
  /** Publishing a dataset of these rows not published before, and an Evaluation object (what a first run adds), per row. */
  publish: number[];
  /** evaluate() runs made traced (each records N predict_and_score calls). */
  tracedRuns: number;
}
