/**
 * One evaluation run as it is recorded, shared by evaluate() and weft-trace/vitest: the options checked, the dataset and the `Evaluation` object published, the run's ops (the root `Evaluation.evaluate`, one `Evaluation.predict_and_score` per row, `Evaluation.summarize`) and the result read back.
 * @module
 */
import { Client } from '../api/client.js';
import { diag } from '../internal/diag.js';
import { activeContext, runInContext, type TraceContext } from '../instrument/context.js';
import { getSink, type CallSink } from '../instrument/sink.js';
import { op } from '../instrument/op.js';
import { thenOf } from '../instrument/thenable.js';
import type { Dataset, DatasetRow } from './dataset.js';
import { datasetOfRun } from './dataset-source.js';
import type { EvaluateOptions, EvaluationResult, EvaluationRow } from './evaluate-options.js';
import { contentKey, publishOnce } from './publish-cache.js';
import { objectIdOf, objectRef, weaveClass } from './refs.js';
import { asOp, prepareScorers, runRow, type PreparedScorer, type RowOutcome } from './row-runner.js';
import { summarize, weaveSummary, type EvaluationSummary } from './summary.js';
import { readUsage } from './usage-readback.js';
import { EVAL_OP_NAMES } from './runs/run-records.js';

/** Op names of an evaluation's calls, as Weave's Python SDK names them. */
const EVAL_OPS = { evaluate: EVAL_OP_NAMES.evaluate[0], predictAndScore: EVAL_OP_NAMES.predictAndScore[0], summarize: EVAL_OP_NAMES.summarize[0] } as const;

/** What a run is made of: the options evaluate() and describeEval share. */
export type RunSpec<Row extends DatasetRow, Output> = Pick<EvaluateOptions<Row, Output>, 'name' | 'dataset' | 'task' | 'scorers' | 'trials' | 'metadata' | 'client'>;

/** A row's outcome with the id of its `Evaluation.predict_and_score` call (absent when nothing was recorded). */
export type ScoredRow = RowOutcome & { callId?: string };

/** Runs the `k`-th row of the run (row `k % dataset.length`, trial-major as Weave's) under the run's root call, from any async context. */
export type ScoreRow = (k: number) => Promise<ScoredRow>;

/** A row's outcome beside what its `Evaluation.predict_and_score` call records as output (`{output, scores, model_latency}`). */
function scored(outcome: RowOutcome): { outcome: ScoredRow; weave: Record<string, unknown> } {
  return { outcome, weave: { output: outcome.output ?? null, scores: outcome.results, model_latency: outcome.latencyMs / 1000 } };
}

/**
 * An integer option >= 1, or `fallback` when absent.
 * @throws {TypeError} naming `caller` and the option when it is not.
 */
export function checkInt(caller: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`${caller}: ${name} must be an integer >= 1, got ${String(value)} (${typeof value})`);
  return value;
}

/** Publishes the dataset and the `Evaluation` object; on failure warns once and goes on without refs (`undefined`). */
async function publish(client: Client, project: string, dataset: Dataset, name: string, scorers: readonly PreparedScorer[], trials: number, metadata: Record<string, unknown> | undefined): Promise<string | undefined> {
  try {
    const ds = dataset.published ?? (await dataset.publish(client, project));
    const val = { ...weaveClass('Evaluation'), name, description: null, dataset: ds.ref, scorers: scorers.map((s) => s.name), trials, metadata: metadata ?? null };
    const id = objectIdOf(name);
    const create = async (): Promise<string> => (await client.objects.create({ obj: { project_id: project, object_id: id, val } })).digest;
    return objectRef(project, id, await publishOnce(client, contentKey('object', project, { id, val }), create));
  } catch (e) {
    diag.warn(`evaluate: the dataset and evaluation objects were not published (${e instanceof Error ? e.message : String(e)}); the run is recorded without them`);
    return undefined;
  }
}

/** One run: {@link RunRecorder.prepare} it, then {@link RunRecorder.record} its rows under one root call. */
export class RunRecorder<Row extends DatasetRow = DatasetRow, Output = unknown> {
  /** Rows × trials: how many rows {@link RunRecorder.record}'s body may score. */
  readonly total: number;

  private constructor(
    private readonly spec: RunSpec<Row, Output>,
    readonly dataset: Dataset<Row>,
    private readonly scorers: PreparedScorer[],
    private readonly task: ReturnType<typeof asOp>,
    readonly trials: number,
    /** The sink `init()` set (nothing is recorded without it) and the client for the same server. */
    readonly sink: CallSink | undefined,
    readonly client: Client | undefined,
    /** The root's `self` input: the `Evaluation` object's ref, else the run's name. */
    private readonly self: string,
  ) {
    this.total = dataset.length * trials;
  }

  /**
   * Checks `spec` and, when tracing is on (after `init()`), publishes the dataset and the `Evaluation` object.
   * @param caller - the function named in error messages (`evaluate`, `describeEval`).
   * @throws {TypeError} when an option is malformed (no name or task, a scorer that is not a function, `trials` < 1, a bad dataset).
   */
  static async prepare<Row extends DatasetRow, Output>(spec: RunSpec<Row, Output>, caller: string): Promise<RunRecorder<Row, Output>> {
    if (typeof spec?.name !== 'string' || spec.name === '') throw new TypeError(`${caller}: name must be a non-empty string, got ${JSON.stringify(spec?.name)}`);
    if (typeof spec.task !== 'function') throw new TypeError(`${caller}: task must be a function, got ${typeof spec.task}`);
    if (!Array.isArray(spec.scorers)) throw new TypeError(`${caller}: scorers must be an array of functions, got ${typeof spec.scorers}`);
    const trials = checkInt(caller, 'trials', spec.trials, 1);
    const scorers = prepareScorers(spec.scorers as unknown as ReadonlyArray<never>);
    const task = asOp(spec.task as never, 'task', false);
    const sink = getSink() ?? undefined;
    const client = sink ? (spec.client ?? new Client(sink.connection ?? {})) : undefined;
    const dataset = await datasetOfRun(spec.dataset, spec.name, caller, { client: client ?? spec.client, project: sink?.projectId });
    const ref = sink && client ? await publish(client, sink.projectId, dataset as Dataset, spec.name, scorers, trials, spec.metadata) : undefined;
    return new RunRecorder(spec, dataset, scorers, task, trials, sink, client, ref ?? spec.name);
  }

  /**
   * Records the run: `body` runs as the root call `Evaluation.evaluate` (its ids given as `root`, `undefined` when
   * nothing is recorded) and scores rows with the `scoreRow` it is given (each an `Evaluation.predict_and_score`
   * call beneath the root, wherever it is called from); when `body`
   * settles, the rows scored are summarized (`Evaluation.summarize`), the calls flushed and the run's tokens and cost
   * read back. Resolves with the run's id (`''` when nothing was recorded), summary and rows; rejects only when
   * `body` does.
   * @param when - `interrupted`, read once `body` settled: whether the run was stopped early (default: no);
   *   `flushTimeoutMs`: how long the flush before the read-back may wait (default: no limit; when it runs out, tokens
   *   and cost stay `null`).
   */
  async record(body: (scoreRow: ScoreRow, root: { id: string; traceId: string } | undefined) => Promise<void>, when: { interrupted?: () => boolean; flushTimeoutMs?: number } = {}): Promise<EvaluationResult<Row, Output>> {
    const { dataset, scorers, task, self } = this;
    const model = task.name || 'task';
    const outcomes: Array<ScoredRow | undefined> = new Array(this.total);
    // synchronous when the task and scorers are (no promise per row); its output as Weave records it, the outcome kept for the summary
    const predictAndScore = op((_self: string, _model: string, example: Row) => {
      const ran = runRow(example, task, scorers);
      return thenOf(ran) ? (ran as Promise<RowOutcome>).then(scored) : scored(ran as RowOutcome);
    }, { name: EVAL_OPS.predictAndScore, parameterNames: ['self', 'model', 'example'], postprocessOutput: (o) => o.weave });
    const summarizeOp = op((_self: string, _table: { rows: number }, summary: EvaluationSummary, scorerOf: Map<string, string>) => weaveSummary(summary, scorerOf), {
      name: EVAL_OPS.summarize, parameterNames: ['self', 'eval_table'], postprocessInputs: ({ self: s, eval_table }) => ({ self: s, eval_table }),
    });

    const root = op(async (_self: string, _model: string) => {
      const rootCtx: TraceContext | undefined = activeContext();
      const scoreRow: ScoreRow = async (k) => {
        const invoke = () => predictAndScore.invoke(self, model, dataset.rows[k % dataset.length]!);
        const [{ outcome }, call] = await (rootCtx ? runInContext(rootCtx, invoke) : invoke());
        if (call) outcome.callId = call.id;
        return (outcomes[k] = outcome);
      };
      const call = rootCtx?.call;
      await body(scoreRow, call ? { id: call.id, traceId: call.traceId } : undefined);
      const ran = outcomes.filter((o) => o !== undefined);
      const scorerOf = new Map<string, string>();
      for (const o of ran) for (const key in o.scores) if (!scorerOf.has(key)) scorerOf.set(key, scorers.find((s) => key === s.name || key.startsWith(`${s.name}.`))?.name ?? key);
      const summary = summarize(ran.map((o) => ({ scores: o.scores, taskFailed: o.taskError !== undefined, scorerErrors: o.scorerErrors, latencyMs: o.latencyMs })), scorerOf, scorers.map((s) => s.name), when.interrupted?.() ?? false);
      return { summary, weave: summarizeOp(self, { rows: ran.length }, summary, scorerOf) };
    }, {
      name: EVAL_OPS.evaluate,
      parameterNames: ['self', 'model'],
      callDisplayName: this.spec.name,
      attributes: { weft: { evaluation: { name: this.spec.name, dataset: dataset.name, trials: this.trials, scorers: scorers.map((s) => s.name), ...(this.spec.metadata ? { metadata: this.spec.metadata } : {}) } } },
      postprocessOutput: (o) => o.weave,
    });

    const [{ summary }, rootCall] = await root.invoke(self, model);
    if (rootCall && this.client && this.sink) Object.assign(summary, await readUsage(this.client, this.sink.projectId, rootCall.id, when.flushTimeoutMs));
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
}
