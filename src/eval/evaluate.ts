/**
 * evaluate(): runs a task on every dataset row (`trials` times, `concurrency` at once), scores each output, and records the run as Weave records an evaluation.
 * @module
 */
import { Client } from '../api/client.js';
import { diag } from '../internal/diag.js';
import { startProgress } from '../internal/progress.js';
import { getSink } from '../instrument/sink.js';
import { op } from '../instrument/op.js';
import { Dataset, type DatasetRow } from './dataset.js';
import { contentKey, publishOnce } from './publish-cache.js';
import type { EvaluateOptions, EvaluationResult, EvaluationRow } from './evaluate-options.js';
import { objectRef, weaveClass } from './refs.js';
import { thenOf } from '../instrument/thenable.js';
import { asOp, prepareScorers, runRow, type PreparedScorer, type RowOutcome } from './row-runner.js';
import { summarize, weaveSummary, type EvaluationSummary } from './summary.js';
import { readUsage } from './usage-readback.js';
import { EVAL_OP_NAMES } from './runs/run-records.js';

/** Op names of an evaluation's calls, as Weave's Python SDK names them. */
const EVAL_OPS = { evaluate: EVAL_OP_NAMES.evaluate[0], predictAndScore: EVAL_OP_NAMES.predictAndScore[0], summarize: EVAL_OP_NAMES.summarize[0] } as const;

/** A row's outcome beside what its `Evaluation.predict_and_score` call records as output (`{output, scores, model_latency}`). */
function scored(outcome: RowOutcome): { outcome: RowOutcome & { callId?: string }; weave: Record<string, unknown> } {
  return { outcome, weave: { output: outcome.output ?? null, scores: outcome.results, model_latency: outcome.latencyMs / 1000 } };
}

function checkInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`evaluate: ${name} must be an integer >= 1, got ${String(value)} (${typeof value})`);
  return value;
}

/** The object id for a run name: characters other than letters, digits, `-`, `_`, `.` become `-` (at most 128). */
export function objectIdOf(name: string): string {
  return name.replace(/[^\w.-]/g, '-').slice(0, 128) || 'evaluation';
}

interface Published {
  evaluationRef: string | undefined;
}

/** Publishes the dataset and the `Evaluation` object; on failure warns once and goes on without refs. */
async function publish(client: Client, project: string, dataset: Dataset, name: string, scorers: readonly PreparedScorer[], trials: number, metadata: Record<string, unknown> | undefined): Promise<Published> {
  try {
    const ds = dataset.published ?? (await dataset.publish(client, project));
    const val = { ...weaveClass('Evaluation'), name, description: null, dataset: ds.ref, scorers: scorers.map((s) => s.name), trials, metadata: metadata ?? null };
    const id = objectIdOf(name);
    const create = async (): Promise<string> => (await client.objects.create({ obj: { project_id: project, object_id: id, val } })).digest;
    const digest = await publishOnce(client, contentKey('object', project, { id, val }), create);
    return { evaluationRef: objectRef(project, id, digest) };
  } catch (e) {
    diag.warn(`evaluate: the dataset and evaluation objects were not published (${e instanceof Error ? e.message : String(e)}); the run is recorded without them`);
    return { evaluationRef: undefined };
  }
}

/**
 * Runs an evaluation: `task(row)` on every row of `dataset` (`trials` times, at most `concurrency` rows at once),
 * then each scorer on `{ row, output, expected: row.expected }`. An exception in the task or a scorer is recorded
 * for that row and counted; the run goes on. A progress bar shows on a terminal; Ctrl-C (SIGINT) or `signal`
 * ends the run with what was scored so far summarized and recorded.
 *
 * Recorded (after `init()`) as the Weave SDKs record an evaluation, so Weave's and weft's runs read alike: the
 * dataset (`/table/create` + `/obj/create`) and an `Evaluation` object are published; a root call
 * `Evaluation.evaluate` (inputs `self`: the evaluation ref, `model`: the task's name; output: the summary in
 * Weave's shape), one `Evaluation.predict_and_score` call per row (inputs `self`, `model`, `example`: the row;
 * output `{output, scores, model_latency}`) with the task's and scorers' calls beneath it, and an
 * `Evaluation.summarize` call. Each score is also feedback on the task's call (`feedback_type`
 * `wandb.runnable.<scorer>`, payload `{output: <score>}`), so `/feedback/stats` charts it over time. The rows, the
 * dataset and the `Evaluation` object are sent once per client and content: a run repeating one reuses its digest.
 * Without `init()` (or with tracing disabled) the run is not recorded and `id` is `''`.
 *
 * @returns `{ id, summary, rows }`: `id` the root call id, `summary` per score the mean (booleans: the true
 *   fraction) and failures, plus latency, tokens and cost; `rows` each row's output and scores.
 * @throws {TypeError} when an option is malformed (no task, a scorer that is not a function, `trials` < 1, a bad dataset).
 * @example
 * const client = init({ project: 'acme/demo' });
 * const run = await evaluate({
 *   name: 'capitals-v2', client,
 *   dataset: new Dataset({ name: 'capitals', rows: [{ q: 'France?', expected: 'Paris' }] }),
 *   task: async (row) => answer(row.q),
 *   scorers: [exactMatch(), stringSimilarity()],
 * });
 * console.log(run.id, run.summary.scores.exact_match.mean);
 */
export async function evaluate<Row extends DatasetRow = DatasetRow, Output = unknown>(options: EvaluateOptions<Row, Output>): Promise<EvaluationResult<Row, Output>> {
  if (typeof options?.name !== 'string' || options.name === '') throw new TypeError(`evaluate: name must be a non-empty string, got ${JSON.stringify(options?.name)}`);
  if (typeof options.task !== 'function') throw new TypeError(`evaluate: task must be a function, got ${typeof options.task}`);
  if (!Array.isArray(options.scorers)) throw new TypeError(`evaluate: scorers must be an array of functions, got ${typeof options.scorers}`);
  const trials = checkInt('trials', options.trials, 1);
  const concurrency = checkInt('concurrency', options.concurrency, 5);
  const dataset: Dataset<Row> = options.dataset instanceof Dataset ? options.dataset : new Dataset({ name: `${objectIdOf(options.name)}-dataset`.slice(0, 128), rows: options.dataset as readonly Row[] });
  const scorers = prepareScorers(options.scorers as unknown as ReadonlyArray<never>);
  const task = asOp(options.task as never, 'task', false);
  const sink = getSink();
  const client = sink ? (options.client ?? new Client(sink.connection ?? {})) : undefined;
  const published = sink && client ? await publish(client, sink.projectId, dataset as Dataset, options.name, scorers, trials, options.metadata) : { evaluationRef: undefined };
  const self = published.evaluationRef ?? options.name;
  const model = task.name || 'task';

  const total = dataset.length * trials;
  const outcomes: Array<(RowOutcome & { callId?: string }) | undefined> = new Array(total);
  const progress = startProgress('Evaluating', total, { unit: 'rows', piped: 'silent', enabled: options.progress !== false });
  let interrupted = false;
  let done = 0;
  let next = 0;
  const stop = (): void => {
    interrupted = true;
  };
  // Ctrl-C where the runtime has signals (not on Workers or Vercel Edge, which have no process.on)
  const host = (globalThis as { process?: Pick<NodeJS.Process, 'once' | 'off' | 'stderr'> }).process;
  const onSigint = (): void => {
    host?.stderr?.write('\nevaluate: stopping (Ctrl-C again to quit now); rows in flight finish, then the run is summarized\n');
    stop();
  };

  // synchronous when the task and scorers are (no promise per row); its output as Weave records it, the outcome kept for the summary
  const predictAndScore = op((_self: string, _model: string, example: Row) => {
    const ran = runRow(example, task, scorers);
    return thenOf(ran) ? (ran as Promise<RowOutcome>).then(scored) : scored(ran as RowOutcome);
  }, { name: EVAL_OPS.predictAndScore, parameterNames: ['self', 'model', 'example'], postprocessOutput: (o) => o.weave });
  const summarizeOp = op((_self: string, _table: { rows: number }, summary: EvaluationSummary, scorerOf: Map<string, string>) => weaveSummary(summary, scorerOf), {
    name: EVAL_OPS.summarize, parameterNames: ['self', 'eval_table'], postprocessInputs: ({ self: s, eval_table }) => ({ self: s, eval_table }),
  });

  const root = op(async (_self: string, _model: string) => {
    host?.once?.('SIGINT', onSigint);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    // `concurrency` workers take the next row (trial-major order, as Weave's) until none is left or the run is stopped
    const worker = async (): Promise<void> => {
      while (!interrupted && next < total) {
        const k = next++;
        const [{ outcome }, call] = await predictAndScore.invoke(self, model, dataset.rows[k % dataset.length]!);
        if (call) outcome.callId = call.id;
        outcomes[k] = outcome;
        progress.update(++done);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
    } finally {
      host?.off?.('SIGINT', onSigint);
      options.signal?.removeEventListener('abort', stop);
    }
    const ran = outcomes.filter((o) => o !== undefined);
    const scorerOf = new Map<string, string>();
    for (const o of ran) for (const key in o.scores) if (!scorerOf.has(key)) scorerOf.set(key, scorers.find((s) => key === s.name || key.startsWith(`${s.name}.`))?.name ?? key);
    const summary = summarize(ran.map((o) => ({ scores: o.scores, taskFailed: o.taskError !== undefined, scorerErrors: o.scorerErrors, latencyMs: o.latencyMs })), scorerOf, scorers.map((s) => s.name), interrupted);
    return { summary, weave: summarizeOp(self, { rows: ran.length }, summary, scorerOf) };
  }, {
    name: EVAL_OPS.evaluate,
    parameterNames: ['self', 'model'],
    callDisplayName: options.name,
    attributes: { weft: { evaluation: { name: options.name, dataset: dataset.name, trials, scorers: scorers.map((s) => s.name), ...(options.metadata ? { metadata: options.metadata } : {}) } } },
    postprocessOutput: (o) => o.weave,
  });

  const [result, rootCall] = await root.invoke(self, model);
  const summary = result.summary;
  progress.stop(`Evaluated ${summary.rows}/${total} rows${interrupted ? ' (interrupted)' : ''}: ${summary.failures.task} task failures`);
  if (rootCall && client) Object.assign(summary, await readUsage(client, sink!.projectId, rootCall.id));
  const rows: Array<EvaluationRow<Row, Output>> = [];
  outcomes.forEach((o, k) => {
    if (!o) return;
    const index = k % dataset.length;
    rows.push({
      index, trial: Math.floor(k / dataset.length), row: dataset.rows[index]!, output: o.output as Output | undefined, scores: o.scores, latencyMs: o.latencyMs,
      ...(o.taskError !== undefined ? { error: o.taskError } : {}), ...(o.scorerErrors ? { scorerErrors: o.scorerErrors } : {}), ...(o.callId ? { callId: o.callId } : {}),
    });
  });
  rows.sort((a, b) => a.index - b.index || a.trial - b.trial);
  return { id: rootCall?.id ?? '', summary, rows };
}
