/**
 * Runs compared: per score the delta of each run's mean from the base run's, and per dataset row each run's output and scores, marked regressed, improved or changed. Higher scores count as better. Pure.
 * @module
 */
import type { ScoreValue } from '../scorer.js';
import type { EvalRow, EvalRun } from './run-records.js';

/** One score across the runs. */
export interface ScoreComparison {
  score: string;
  /** Each run's mean, in the order given (`null`: the run has no such score). */
  means: Array<number | null>;
  /** Each run's mean minus the base's (the first run); `null` when either is missing. The base's own is 0. */
  deltas: Array<number | null>;
}

/** One dataset row across the runs. */
export interface RowComparison {
  key: string;
  example: unknown;
  /** Per run (same order), the row's outputs (one per trial) and mean scores; `null` when the run has no such row. */
  runs: Array<{ outputs: unknown[]; scores: Record<string, number>; failed: boolean } | null>;
  /** Worst over the later runs against the base: `regressed` (a score went down, or the row failed), `improved`, `changed` (an output differs), `same`. */
  change: 'regressed' | 'improved' | 'changed' | 'same';
}

/** The comparison of runs (the first is the base). */
export interface RunComparison {
  scores: ScoreComparison[];
  rows: RowComparison[];
}

const EPSILON = 1e-9;

function meanScores(rows: readonly EvalRow[]): Record<string, number> {
  const sums: Record<string, [number, number]> = {};
  for (const r of rows) for (const [k, v] of Object.entries(r.scores)) {
    const s = (sums[k] ??= [0, 0]);
    s[0] += Number(v as ScoreValue);
    s[1]++;
  }
  return Object.fromEntries(Object.entries(sums).map(([k, [sum, n]]) => [k, sum / n]));
}

function changeOf(base: RowComparison['runs'][number], other: RowComparison['runs'][number]): RowComparison['change'] {
  if (!base || !other) return 'same';
  if (other.failed && !base.failed) return 'regressed';
  let down = false;
  let up = base.failed && !other.failed;
  for (const [k, b] of Object.entries(base.scores)) {
    const o = other.scores[k];
    if (o === undefined) continue;
    if (o < b - EPSILON) down = true;
    if (o > b + EPSILON) up = true;
  }
  if (down) return 'regressed';
  if (up) return 'improved';
  return JSON.stringify(base.outputs) === JSON.stringify(other.outputs) ? 'same' : 'changed';
}

const RANK = { regressed: 3, improved: 2, changed: 1, same: 0 } as const;

/** Compares runs (`runs[0]` is the base); `rows[i]` are the rows of `runs[i]`. */
export function compareRuns(runs: readonly EvalRun[], rows: ReadonlyArray<readonly EvalRow[]>): RunComparison {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.scores)))].sort();
  const scores = names.map((score) => {
    const means = runs.map((r) => r.scores[score] ?? null);
    const base = means[0] ?? null;
    return { score, means, deltas: means.map((m) => (m === null || base === null ? null : m - base)) };
  });
  const byKey = new Map<string, RowComparison>();
  rows.forEach((list, i) => {
    const groups = new Map<string, EvalRow[]>();
    for (const r of list) {
      const g = groups.get(r.key);
      if (g) g.push(r);
      else groups.set(r.key, [r]);
    }
    for (const [key, group] of groups) {
      let row = byKey.get(key);
      if (!row) byKey.set(key, (row = { key, example: group[0]!.example, runs: runs.map(() => null), change: 'same' }));
      row.runs[i] = { outputs: group.map((g) => g.output), scores: meanScores(group), failed: group.every((g) => g.failed) };
    }
  });
  for (const row of byKey.values()) {
    for (let i = 1; i < row.runs.length; i++) {
      const c = changeOf(row.runs[0] ?? null, row.runs[i] ?? null);
      if (RANK[c] > RANK[row.change]) row.change = c;
    }
  }
  return { scores, rows: [...byKey.values()] };
}
