/**
 * The CI gates of `weft eval compare` / `show`: `--fail-below <score>=<value>` and `--fail-on-regression <score>[=<delta>]`, parsed and checked.
 * @module
 */
import { InvalidArgumentError } from 'commander';
import type { ScoreComparison } from 'weft-trace/eval';

/** One gate: a score and a bound. */
export interface Gate {
  score: string;
  value: number;
}

/** Parses `<score>=<number>` (for `--fail-on-regression`, `=<delta>` may be left out: 0); commander collects repeats. */
export function gateParser(valueRequired: boolean): (raw: string, previous: Gate[] | undefined) => Gate[] {
  return (raw, previous) => {
    const m = /^(.+?)(?:=(-?\d+(?:\.\d+)?(?:e-?\d+)?))?$/i.exec(raw.trim());
    if (!m || (valueRequired && m[2] === undefined)) {
      throw new InvalidArgumentError(`expected ${valueRequired ? '<score>=<number>, e.g. exact_match=0.8' : '<score>[=<delta>], e.g. exact_match or exact_match=0.02'}, got "${raw}"`);
    }
    return [...(previous ?? []), { score: m[1]!, value: m[2] === undefined ? 0 : Number(m[2]) }];
  };
}

/** What failed: one line per gate not passed (an unknown score fails too, naming the scores there are). */
export function checkGates(scores: Record<string, number>, below: readonly Gate[], comparisons: readonly ScoreComparison[] = [], regression: readonly Gate[] = []): string[] {
  const failed: string[] = [];
  const known = Object.keys(scores).sort().join(', ') || 'none';
  for (const g of below) {
    const v = scores[g.score];
    if (v === undefined) failed.push(`--fail-below ${g.score}: the run has no score ${g.score} (scores: ${known})`);
    else if (v < g.value) failed.push(`${g.score} is ${fmt(v)}, below ${fmt(g.value)}`);
  }
  for (const g of regression) {
    const cmp = comparisons.find((c) => c.score === g.score);
    const delta = cmp?.deltas[1];
    if (delta === undefined || delta === null) failed.push(`--fail-on-regression ${g.score}: both runs need a score ${g.score} (candidate scores: ${known})`);
    else if (delta < -g.value - 1e-12) failed.push(`${g.score} regressed by ${fmt(-delta)} (${fmt(cmp!.means[0]!)} → ${fmt(cmp!.means[1]!)}), more than ${fmt(g.value)}`);
  }
  return failed;
}

/** A score for people: up to 4 decimals. */
export function fmt(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : String(Math.round(v * 10_000) / 10_000);
}
