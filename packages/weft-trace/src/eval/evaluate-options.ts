/**
 * Options and result of evaluate(): what runs, how many times, how wide, and what comes back.
 * @module
 */
import type { Client } from '../api/client.js';
import type { Dataset, DatasetRow } from './dataset.js';
import type { Scorer, ScoreValue } from './scorer.js';
import type { EvaluationSummary } from './summary.js';

/** Options of `evaluate()`. */
export interface EvaluateOptions<Row extends DatasetRow = DatasetRow, Output = unknown> {
  /** The run's name: the `Evaluation` object's id (characters other than letters, digits, `-`, `_`, `.` become `-`) and the root call's display name. */
  name: string;
  /**
   * The rows: a {@link Dataset} (published on first use), an array of row objects (published as dataset
   * `<name>-dataset`), or a published dataset by name or ref, read from the server before the run: a ref
   * `weave:///<entity>/<project>/object/<name>:<digest>` (or `svc:///...`; digest `latest` or `v<N>` too), or a name in
   * the project `init()` set, meaning its latest version (`name:<digest|vN>` for another), such as a dataset made
   * from traced calls in the viewer (docs/evaluations.md, "Datasets from traces").
   */
  dataset: Dataset<Row> | readonly Row[] | string;
  /** What is evaluated: called with each row, sync or async; traced (as an op named after the function, `task` when anonymous). */
  task: (row: Row) => Output | Promise<Output>;
  /** The scorers, each called with `{ row, output, expected }` once the task returned. */
  scorers: ReadonlyArray<Scorer<Row, Output>>;
  /** How many times each row is run. Integer >= 1. @defaultValue 1 */
  trials?: number;
  /** Rows in flight at once (task and scorers). Integer >= 1. @defaultValue 5 (Weave's default) */
  concurrency?: number;
  /** Any JSON object, stored on the `Evaluation` object and as the root call's `weft.evaluation.metadata` attribute. @defaultValue none */
  metadata?: Record<string, unknown>;
  /**
   * The client datasets and the `Evaluation` object are published through, and tokens and cost read back with.
   * @defaultValue a `Client` for the server `init()` sends to (its `baseUrl` and `apiKey`)
   */
  client?: Client;
  /** Ends the run early (as Ctrl-C does): rows not started are skipped, what was scored is summarized and recorded. @defaultValue none */
  signal?: AbortSignal;
  /** Progress bar on stderr when it is a terminal (nothing when piped). @defaultValue true */
  progress?: boolean;
}

/** One row's result (per trial). */
export interface EvaluationRow<Row = DatasetRow, Output = unknown> {
  /** Position of the row in the dataset (0-based). */
  index: number;
  /** Trial number (0-based). */
  trial: number;
  row: Row;
  /** What the task returned; `undefined` when it threw. */
  output: Output | undefined;
  /** Named scores (see `scoresOf`): `{ exact_match: true, 'retrieval.recall': 0.5 }`. */
  scores: Record<string, ScoreValue>;
  /** The task's exception message, when it threw (no scorer ran). */
  error?: string;
  /** Exception messages of the scorers that threw, by scorer name. */
  scorerErrors?: Record<string, string>;
  /** Task latency, milliseconds. */
  latencyMs: number;
  /** Id of the row's `Evaluation.predict_and_score` call (absent when tracing is off). */
  callId?: string;
}

/** What `evaluate()` resolves with. */
export interface EvaluationResult<Row = DatasetRow, Output = unknown> {
  /** The run's id: its root `Evaluation.evaluate` call id (what `weft eval show` and `compare` take); `''` when tracing is off. */
  id: string;
  summary: EvaluationSummary;
  /** Every row run, by dataset position then trial. */
  rows: Array<EvaluationRow<Row, Output>>;
}
