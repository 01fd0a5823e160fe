/**
 * Evaluation runs read from call records, whoever ran them (weft's evaluate() or a Weave SDK): the run's scores from its root call's output, each row from its `Evaluation.predict_and_score` call. Pure: the CLI and the viewer share it.
 * @module
 */
import { scoresOf, type ScoreValue } from '../scorer.js';

/** The fields of a call record read here. */
export interface EvalCallRecord {
  id: string;
  op_name: string;
  display_name?: string | null;
  trace_id: string;
  parent_id?: string | null;
  started_at: string;
  ended_at?: string | null;
  inputs?: Record<string, unknown> | null;
  output?: unknown;
  exception?: unknown;
  summary?: Record<string, unknown> | null;
  attributes?: Record<string, unknown> | null;
}

/**
 * Op names of an evaluation's calls (weft records them as is; a Weave SDK as op refs
 * `weave:///<project>/op/<name>:<digest>`; Weave's TypeScript SDK names the row op `Evaluation.predictAndScore`).
 */
export const EVAL_OP_NAMES = {
  evaluate: ['Evaluation.evaluate'],
  predictAndScore: ['Evaluation.predict_and_score', 'Evaluation.predictAndScore'],
  summarize: ['Evaluation.summarize'],
} as const;

/** The `op_names` filter matching ops as weft and the Weave SDKs name them in `project`. */
export function opNamesFilter(project: string, names: readonly string[]): string[] {
  return names.flatMap((name) => [name, `weave:///${project}/op/${name}:*`]);
}

/** An op's name without a Weave ref around it (`weave:///a/b/op/Evaluation.evaluate:abc` → `Evaluation.evaluate`). */
export function bareOpName(opName: string): string {
  return /\/op\/([^/:]+):[^/]*$/.exec(opName)?.[1] ?? opName;
}

/** One run, as listed. */
export interface EvalRun {
  id: string;
  name: string;
  /** The dataset's name, when known. */
  dataset: string | null;
  /** The task (model) evaluated, when known. */
  model: string | null;
  startedAt: string;
  endedAt: string | null;
  /** Per score name the mean (booleans: the true fraction), from the run's summary. */
  scores: Record<string, number>;
  /** Mean task latency, seconds. */
  latencyS: number | null;
  /** USD, as the server priced the run's usage (`include_costs`); `null` when unpriced. */
  costUsd: number | null;
  /** The SDK that recorded it. */
  sdk: 'weft' | 'weave';
}

/**
 * A Weave summary as flat score means: `{a: {mean}}` → `a`, `{a: {true_fraction}}` → `a`, `{r: {recall: {mean}}}` →
 * `r.recall`; `model_latency` is left out (see {@link runOf}).
 */
export function flattenSummary(output: unknown, prefix = ''): Record<string, number> {
  const out: Record<string, number> = {};
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return out;
  for (const [key, v] of Object.entries(output)) {
    if (!prefix && key === 'model_latency') continue;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const stat = v as Record<string, unknown>;
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof stat['true_fraction'] === 'number') out[name] = stat['true_fraction'];
    else if (typeof stat['mean'] === 'number') out[name] = stat['mean'];
    else Object.assign(out, flattenSummary(stat, name));
  }
  return out;
}

/** The object name in an object ref (`weave:///e/p/object/<name>:<digest>`), else the value when it is a short string. */
export function refName(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  const m = /\/(?:object|op)\/([^/:]+):[^/]+$/.exec(ref);
  return m ? m[1]! : ref.length <= 200 ? ref : null;
}

/** USD over a record's `summary.costs` (per model `total_cost`); `null` when none. */
export function costOf(summary: unknown): number | null {
  const costs = Object.values(((summary ?? {}) as { costs?: Record<string, { total_cost?: unknown }> }).costs ?? {});
  return costs.length ? costs.reduce((s, c) => s + (typeof c.total_cost === 'number' ? c.total_cost : 0), 0) : null;
}

/**
 * A run from its root call. `datasetOf` maps an `Evaluation` object ref (the root's `self` input) to its dataset
 * ref, for runs that do not name the dataset in the `weft.evaluation` attribute (Weave SDK runs).
 */
export function runOf(root: EvalCallRecord, datasetOf: (evaluationRef: string) => unknown = () => undefined): EvalRun {
  const inputs = root.inputs ?? {};
  const meta = ((root.attributes?.['weft'] as Record<string, unknown> | undefined)?.['evaluation'] ?? {}) as Record<string, unknown>;
  const self = inputs['self'];
  const dataset = typeof meta['dataset'] === 'string' ? meta['dataset'] : refName(typeof self === 'string' ? datasetOf(self) : undefined);
  const latency = (root.output as { model_latency?: { mean?: unknown } } | null)?.model_latency?.mean;
  return {
    id: root.id,
    name: root.display_name || (typeof meta['name'] === 'string' ? meta['name'] : null) || refName(self) || bareOpName(root.op_name),
    dataset,
    model: refName(inputs['model']) ?? (inputs['model'] && typeof inputs['model'] === 'object' ? refName((inputs['model'] as { name?: unknown }).name) : null),
    startedAt: root.started_at,
    endedAt: root.ended_at ?? null,
    scores: flattenSummary(root.output),
    latencyS: typeof latency === 'number' ? latency : null,
    costUsd: costOf(root.summary),
    sdk: root.op_name.startsWith('weave:') ? 'weave' : 'weft',
  };
}

/** One row of a run: its example, output and named scores. */
export interface EvalRow {
  /** The `predict_and_score` call id. */
  id: string;
  /** Matches the same dataset row across runs: the example's JSON with keys sorted, or its row ref. */
  key: string;
  example: unknown;
  output: unknown;
  scores: Record<string, ScoreValue>;
  /** The task (or the row) failed: no output. */
  failed: boolean;
}

/** A JSON value as text with object keys sorted at every depth (two equal rows, one text). */
export function rowKey(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

/** A row from its `Evaluation.predict_and_score` call (weft's and Weave's output: `{output | model_output, scores, model_latency}`). */
export function rowOf(call: EvalCallRecord): EvalRow {
  const inputs = call.inputs ?? {};
  const example = inputs['example'] ?? inputs['datasetRow'] ?? null;
  const out = (call.output ?? {}) as Record<string, unknown>;
  const scores: Record<string, ScoreValue> = {};
  for (const [scorer, result] of Object.entries((out['scores'] ?? {}) as Record<string, unknown>)) Object.assign(scores, scoresOf(scorer, result));
  const output = 'output' in out ? out['output'] : out['model_output'];
  const status = (call.summary as { status?: unknown } | null)?.status;
  const failed = call.exception != null || output === undefined || (output === null && (status === 'error' || status === 'descendant_error'));
  return { id: call.id, key: typeof example === 'string' ? example : rowKey(example), example, output, scores, failed };
}
