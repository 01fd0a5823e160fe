/**
 * evaluate(): runs a task on every dataset row (`trials` times, `concurrency` at once), scores each output, and records the run as Weave records an evaluation.
 * @module
 */
import { startProgress } from '../internal/progress.js';
import type { DatasetRow } from './dataset.js';
import type { EvaluateOptions, EvaluationResult } from './evaluate-options.js';
import { checkInt, RunRecorder } from './run-recorder.js';

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
 * Without `init()` (or with tracing disabled) the run is not recorded and `id` is `''`. A `dataset` given by name or
 * ref (such as one made from traced calls in the viewer) is read from the server before the first row runs.
 *
 * @returns `{ id, summary, rows }`: `id` the root call id, `summary` per score the mean (booleans: the true
 *   fraction) and failures, plus latency, tokens and cost; `rows` each row's output and scores.
 * @throws {TypeError} when an option is malformed (no task, a scorer that is not a function, `trials` < 1, a bad
 *   dataset, a dataset name with no project known from `init()`).
 * @throws {NotFoundError} when `dataset` names a published dataset (by name or ref) that does not exist; `APIError`
 *   (or another subclass) when the server it is read from refuses or is away.
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
  const concurrency = checkInt('evaluate', 'concurrency', options?.concurrency, 5);
  const recorder = await RunRecorder.prepare(options, 'evaluate');
  const total = recorder.total;
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

  const result = await recorder.record(async (scoreRow) => {
    host?.once?.('SIGINT', onSigint);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    // `concurrency` workers take the next row (trial-major order, as Weave's) until none is left or the run is stopped
    const worker = async (): Promise<void> => {
      while (!interrupted && next < total) {
        await scoreRow(next++);
        progress.update(++done);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
    } finally {
      host?.off?.('SIGINT', onSigint);
      options.signal?.removeEventListener('abort', stop);
    }
  }, { interrupted: () => interrupted });
  const { summary } = result;
  progress.stop(`Evaluated ${summary.rows}/${total} rows${interrupted ? ' (interrupted)' : ''}: ${summary.failures.task} task failures`);
  return result;
}
