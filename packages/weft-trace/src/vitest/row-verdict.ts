/**
 * Whether one scored row passes: its task and scorers ran, and each score is at or above its threshold; else the reason, in one line that names the row.
 * @module
 */
import type { ScoredRow } from '../eval/run-recorder.js';

/**
 * The least score a row may have: one number for every score of the row, or one per score name (`exact_match`,
 * `retrieval.recall`, as the scorers name them). A boolean score counts as 1 (`true`) or 0 (`false`).
 */
export type Threshold = number | Record<string, number>;

/**
 * `undefined` when the row passes, else why it does not: the task threw, a scorer threw, a score below its
 * threshold (`exact_match = 0 < 1`), or a score named in `threshold` the row does not have. With no threshold,
 * only exceptions fail a row.
 */
export function rowVerdict(row: ScoredRow, threshold: Threshold | undefined): string | undefined {
  if (row.taskError !== undefined) return `the task threw: ${row.taskError}`;
  const thrown = Object.entries(row.scorerErrors ?? {}).map(([scorer, message]) => `scorer ${scorer} threw: ${message}`);
  if (thrown.length > 0) return thrown.join('; ');
  if (threshold === undefined) return undefined;
  const wanted = typeof threshold === 'number' ? Object.keys(row.scores).map((name) => [name, threshold] as const) : Object.entries(threshold);
  const below: string[] = [];
  for (const [name, least] of wanted) {
    const score = row.scores[name];
    if (score === undefined) below.push(`no ${name} score (threshold ${least})`);
    else if (Number(score) < least) below.push(`${name} = ${String(score)} < ${least}`);
  }
  return below.length > 0 ? below.join(', ') : undefined;
}
