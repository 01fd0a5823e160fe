/**
 * An evaluation's summary: per score the mean (booleans: the true fraction) and failures, latency; and the same in Weave's shape (the root call's output).
 * @module
 */
import type { ScoreValue } from './scorer.js';

/** One score over the run. */
export interface ScoreSummary {
  /** Mean of the values (for booleans, the fraction that are `true`); `null` when no row produced this score. */
  mean: number | null;
  /** `number` or `boolean` (as the first value seen). */
  kind: 'number' | 'boolean';
  /** Rows that produced the score. */
  count: number;
  /** Rows where the scorer producing it threw (or the task threw, so it never ran). */
  failures: number;
}

/** What `evaluate()` returns as `summary`. */
export interface EvaluationSummary {
  /** Rows run (dataset rows × trials; fewer when interrupted). */
  rows: number;
  /** Per score name (`exact_match`, `retrieval.recall`). */
  scores: Record<string, ScoreSummary>;
  /** Exceptions counted: `task` rows whose task threw; `scorers` per scorer name. */
  failures: { task: number; scorers: Record<string, number> };
  /** Task latency per row, milliseconds: mean and 95th percentile (`null` when no row ran). */
  latencyMs: { mean: number | null; p95: number | null };
  /** Tokens used by the whole run (task and judges), as the server added them up; `null` when unknown (tracing off or server unreachable). */
  tokens: { prompt: number; completion: number; total: number } | null;
  /** USD cost of those tokens as the server priced them; `null` when unknown. */
  costUsd: number | null;
  /** True when Ctrl-C (SIGINT) or `signal` ended the run early. */
  interrupted: boolean;
}

/** What the summary is built from, per row. */
export interface RowFacts {
  scores: Record<string, ScoreValue>;
  taskFailed: boolean;
  scorerErrors: Record<string, string> | undefined;
  latencyMs: number;
}

/**
 * Summarizes rows. `scorerOf` maps a score name to its scorer's name; `scorerNames` are every scorer's.
 */
export function summarize(rows: readonly RowFacts[], scorerOf: ReadonlyMap<string, string>, scorerNames: readonly string[], interrupted: boolean): EvaluationSummary {
  const scorerFailures: Record<string, number> = Object.fromEntries(scorerNames.map((n) => [n, 0]));
  let taskFailures = 0;
  const values = new Map<string, ScoreValue[]>();
  for (const row of rows) {
    if (row.taskFailed) taskFailures++;
    for (const name of Object.keys(row.scorerErrors ?? {})) scorerFailures[name] = (scorerFailures[name] ?? 0) + 1;
    for (const [name, v] of Object.entries(row.scores)) {
      let list = values.get(name);
      if (!list) values.set(name, (list = []));
      list.push(v);
    }
  }
  const scores: Record<string, ScoreSummary> = {};
  for (const [name, list] of values) {
    const kind = typeof list[0] === 'boolean' ? 'boolean' : 'number';
    const sum = list.reduce<number>((s, v) => s + Number(v), 0);
    const scorer = scorerOf.get(name) ?? name;
    scores[name] = { mean: list.length ? sum / list.length : null, kind, count: list.length, failures: (scorerFailures[scorer] ?? 0) + taskFailures };
  }
  const latencies = rows.map((r) => r.latencyMs).sort((a, b) => a - b);
  return {
    rows: rows.length,
    scores,
    failures: { task: taskFailures, scorers: scorerFailures },
    latencyMs: {
      mean: latencies.length ? latencies.reduce((s, v) => s + v, 0) / latencies.length : null,
      p95: latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(0.95 * latencies.length) - 1)]! : null,
    },
    tokens: null,
    costUsd: null,
    interrupted,
  };
}

/** Weave's summary of one score: `{mean}`, or `{true_count, true_fraction}` for booleans. */
type WeaveStat = { mean: number } | { true_count: number; true_fraction: number };

/**
 * The summary in Weave's shape, the output of `Evaluation.evaluate` and `Evaluation.summarize`: per scorer
 * `{mean}` or `{true_count, true_fraction}`, an object scorer's fields one level down (`{retrieval: {recall:
 * {mean}}}`), and `model_latency: {mean}` in seconds.
 */
export function weaveSummary(summary: EvaluationSummary, scorerOf: ReadonlyMap<string, string>): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, s] of Object.entries(summary.scores)) {
    if (s.mean === null) continue;
    const stat: WeaveStat = s.kind === 'boolean' ? { true_count: Math.round(s.mean * s.count), true_fraction: s.mean } : { mean: s.mean };
    const scorer = scorerOf.get(name) ?? name;
    if (scorer === name) out[name] = stat;
    else (out[scorer] ??= {})[name.slice(scorer.length + 1)] = stat;
  }
  return { ...out, ...(summary.latencyMs.mean === null ? {} : { model_latency: { mean: summary.latencyMs.mean / 1000 } }) };
}
