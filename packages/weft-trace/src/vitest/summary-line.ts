/**
 * The line a describeEval file prints when its run ends: rows, per-score means, failures, tokens, cost and the run's link.
 * @module
 */
import type { EvaluationResult } from '../eval/evaluate-options.js';

const num = (v: number): string => String(Math.round(v * 1000) / 1000);

/**
 * One line for people: `weft eval "qa": 3 rows, exact_match 0.667, 1 failed, 120 tokens, $0.0004, <link>`.
 * @param link - the run's viewer link; `undefined` when the run was not recorded (said instead).
 */
export function summaryLine(name: string, result: EvaluationResult<unknown, unknown>, failed: number, link: string | undefined): string {
  const { summary } = result;
  const parts = [`${summary.rows} rows`];
  for (const [score, s] of Object.entries(summary.scores)) parts.push(`${score} ${s.mean === null ? '—' : num(s.mean)}`);
  if (failed > 0) parts.push(`${failed} failed`);
  if (summary.tokens) parts.push(`${summary.tokens.total} tokens`);
  if (summary.costUsd !== null) parts.push(`$${summary.costUsd.toFixed(4)}`);
  parts.push(link ?? 'not recorded (call init() in the file or a setup file, or set WEFT_PROJECT)');
  return `weft eval ${JSON.stringify(name)}: ${parts.join(', ')}`;
}
