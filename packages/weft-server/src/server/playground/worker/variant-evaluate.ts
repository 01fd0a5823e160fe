/**
 * A variant run over a dataset with chosen scorers, through weft-trace's `evaluate()`, so the run is recorded as
 * any evaluation is and the Evaluations page lists and compares it; each row's output is written as its model call
 * ends, then every row with its scores.
 * @module
 */
import { Client, Dataset, evaluate, exactMatch, jsonValid, op, type Scorer, stringSimilarity, withAttributes } from 'weft-trace';
import type { WorkerJob, WorkerLine } from '../playground-job.js';
import { callVariant } from './variant-call.js';

const SCORERS: Record<string, () => Scorer> = { exact_match: exactMatch, string_similarity: stringSimilarity, json_valid: jsonValid };

/** Runs the job's variant on every row of its dataset (the row's fields fill the variables; `expected` is the target). */
export async function evaluateVariant(job: Extract<WorkerJob, { kind: 'evaluate' }>, write: (line: WorkerLine) => void): Promise<void> {
  const client = new Client({ baseUrl: job.base_url, ...(job.api_key ? { apiKey: job.api_key } : {}) });
  const dataset = await Dataset.load(client, job.dataset_ref);
  const { variant } = job;
  // each row's output written as its model call ends (scores follow once the run is summarized)
  const task = op(async (row: Record<string, unknown>) => {
    const out = await callVariant(variant, row, process.env, () => undefined);
    write({ type: 'output', index: dataset.rows.indexOf(row), text: out });
    return out;
  }, { name: `playground.${variant.provider}` });
  const scorers = job.scorers.map((s) => SCORERS[s]!());
  const marks = { 'weft.playground': true, ...(variant.source_call_id ? { 'weft.playground.source_call': variant.source_call_id } : {}) };
  const result = await withAttributes(marks, () => evaluate({
    name: job.name, client, dataset, task, scorers, progress: false, concurrency: 3,
    metadata: { playground: true, provider: variant.provider, model: variant.model, ...(variant.prompt_ref ? { prompt_ref: variant.prompt_ref } : {}) },
  }));
  for (const r of result.rows) write({ type: 'row', index: r.index, output: r.output ?? null, scores: r.scores, ...(r.error ? { error: r.error } : {}) });
  write({ type: 'evaluated', run_id: result.id, summary: result.summary });
}
