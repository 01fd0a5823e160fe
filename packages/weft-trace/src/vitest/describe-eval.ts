/**
 * describeEval() and evalTest(): an evaluation as a vitest suite, one test per row, the whole suite recorded as one evaluation run (as evaluate() records one).
 * @module
 */
import type { Dataset, DatasetRow } from '../eval/dataset.js';
import { datasetOfRun } from '../eval/dataset-source.js';
import type { EvaluateOptions, EvaluationResult } from '../eval/evaluate-options.js';
import { RunRecorder, type ScoreRow } from '../eval/run-recorder.js';
import { init } from '../init.js';
import { enterEvalFile } from '../integrations/llm-cache/scope.js';
import { getSink } from '../instrument/sink.js';
import { runtimeEnv } from '../internal/runtime.js';
import { viewerLink } from '../internal/viewer-link.js';
import { rowVerdict, type Threshold } from './row-verdict.js';
import { summaryLine } from './summary-line.js';
import { vitestApi } from './vitest-api.js';

/** Options of {@link describeEval}. */
export interface DescribeEvalOptions<Row extends DatasetRow = DatasetRow, Output = unknown> extends Pick<EvaluateOptions<Row, Output>, 'task' | 'scorers' | 'metadata' | 'client'> {
  /**
   * The rows, as a {@link Dataset} (published on first use, rows and object versioned by content), or a published
   * dataset by name or ref (as `evaluate()` takes one: read from the server when the file is collected, so its rows
   * are the tests; a name needs the project of `init()` or `WEFT_PROJECT`). Give this or `rows`, or add rows with
   * {@link evalTest}. @defaultValue none
   */
  dataset?: Dataset<Row> | string;
  /** The rows as plain objects (published as dataset `<name>-dataset`, with any {@link evalTest} rows after them). @defaultValue none */
  rows?: readonly Row[];
  /**
   * The least score a row's test accepts: a number for every score, or per score name (booleans count as 1 and 0).
   * A row below it fails its test, naming the score. Without one, a row fails only when its task or a scorer throws.
   * @defaultValue none
   */
  threshold?: Threshold;
  /** Each row's test name. @defaultValue `row <index>: <the row as JSON, cut to 60 characters>` */
  testName?: (row: Row, index: number) => string;
  /** Timeout of each row's test (task and scorers), milliseconds. @defaultValue vitest's `testTimeout` (5000 unless configured) */
  timeoutMs?: number;
}

/** How long the suite's end waits for its calls to be sent (a server away must not fail the file); then tokens and cost are left out. */
const FLUSH_TIMEOUT_MS = 5_000;

/** The suite being collected, while describeEval's `body` runs: where {@link evalTest} adds its rows. */
let collecting: { rows: DatasetRow[]; names: string[]; fixed: boolean } | undefined;

/**
 * Adds one row to the enclosing {@link describeEval}'s run, as a test named `name`: the suite's task runs on `row`,
 * its scorers score it, and the test fails below the suite's threshold. A plain function rather than a `test.eval`
 * added to vitest's `test`: vitest's exports are an ES module namespace (not ours to extend), and a function keeps
 * `test.each`, `test.skip` and vitest's own types untouched.
 * @param name - the test's name (unique in the suite, as vitest reports it).
 * @param row - the row: any JSON object; `expected`, when present, is what scorers get as `expected`.
 * @throws {TypeError} when called outside a describeEval body, or in one whose rows are a published `dataset`.
 * @example
 * describeEval('capitals', { task: answer, scorers: [exactMatch()], threshold: 1 }, () => {
 *   evalTest('France', { q: 'Capital of France?', expected: 'Paris' });
 * });
 */
export function evalTest(name: string, row: DatasetRow): void {
  if (!collecting) throw new TypeError('evalTest: call it inside the body of describeEval(name, options, body)');
  if (collecting.fixed) throw new TypeError('evalTest: this describeEval takes its rows from a Dataset; give them as `rows` to add more with evalTest');
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new TypeError(`evalTest: row must be an object, got ${JSON.stringify(row)}`);
  collecting.rows.push(row);
  collecting.names.push(name);
}

const preview = (row: unknown): string => {
  const json = JSON.stringify(row) ?? String(row);
  return json.length > 60 ? `${json.slice(0, 59)}…` : json;
};

/** Sets weft up from `WEFT_*` env vars when nothing did and `WEFT_PROJECT` names a project (the suite's line prints the run's link: no first-trace link). */
function initFromEnv(): void {
  if (getSink() === undefined && runtimeEnv()['WEFT_PROJECT']) init({ printViewerLink: false });
}

/**
 * An evaluation as a vitest suite: `describe(name)` with one test per row (the rows of `dataset` or `rows`, then
 * those `body` adds with {@link evalTest}). The suite is one evaluation run, recorded as `evaluate()` records one
 * (the root `Evaluation.evaluate` call spans the suite; each test is one `Evaluation.predict_and_score` call
 * beneath it, its scores also feedback on the task's call), so `weft eval ls`, `weft eval compare` and the viewer's
 * Evaluations page read it. A row's test fails when the task or a scorer throws, or a score is below `threshold`;
 * the message names the score and links the row's call. When the suite ends it prints one line (vitest shows it
 * under the file): rows, per-score means, failures, tokens, cost and the run's viewer link.
 *
 * Recording needs `init()` (in the test file or a vitest `setupFiles` module); when nothing called it and
 * `WEFT_PROJECT` is set, the suite calls `init()` itself (base URL and key from `WEFT_BASE_URL`, `WEFT_API_KEY`).
 * Without either the tests still run and check thresholds; nothing is recorded. The calls are flushed when the
 * suite ends. Rows run one at a time, in order, as vitest runs a file's tests.
 *
 * In CI (`CI` set) with `WEFT_LLM_CACHE` unset, the model requests of a file that uses describeEval replay from its
 * cassette (`__llm_cache__/<file>.jsonl`, see `llmCacheFetch`): no key, no network, and a request not recorded fails.
 *
 * Modeled on evaluate() (same options) and on vitest's `describe` / `test`
 * (https://vitest.dev/api/#describe); the run's shape follows Weave's `Evaluation.evaluate`.
 * @param name - the suite's name and the run's (the `Evaluation` object id: characters other than letters, digits, `-`, `_`, `.` become `-`).
 * @param body - registers rows with {@link evalTest} (and may hold other vitest tests and hooks).
 * @throws {TypeError} at collection when `task` is not a function, `scorers` not an array, `threshold` not a number or an object of numbers, or a row not an object.
 * @example
 * import { exactMatch, init } from 'weft-trace';
 * import { describeEval } from 'weft-trace/vitest';
 * init({ project: 'acme/evals' });
 * describeEval('capitals', {
 *   rows: [{ q: 'Capital of France?', expected: 'Paris' }],
 *   task: (row) => answer(row.q),
 *   scorers: [exactMatch()],
 *   threshold: { exact_match: 1 },
 * });
 */
export function describeEval<Row extends DatasetRow = DatasetRow, Output = unknown>(name: string, options: DescribeEvalOptions<Row, Output>, body?: () => void): void {
  if (typeof options?.task !== 'function') throw new TypeError(`describeEval: task must be a function, got ${typeof options?.task}`);
  if (!Array.isArray(options.scorers)) throw new TypeError(`describeEval: scorers must be an array of functions, got ${typeof options.scorers}`);
  const { threshold } = options;
  const badThreshold = threshold !== undefined && typeof threshold !== 'number' && (threshold === null || typeof threshold !== 'object' || Object.values(threshold).some((v) => typeof v !== 'number'));
  if (badThreshold) throw new TypeError(`describeEval: threshold must be a number or an object of numbers by score name, got ${JSON.stringify(threshold)}`);
  const { describe, expect } = vitestApi();
  enterEvalFile(expect.getState().testPath);
  const named = options.dataset;
  if (typeof named === 'string') {
    // a dataset by name or ref: its rows are read before the suite's tests are collected (vitest awaits an async describe body)
    describe(name, async () => {
      initFromEnv();
      const sink = getSink() ?? undefined;
      const dataset = await datasetOfRun<Row>(named, name, 'describeEval', { client: options.client, connection: sink?.connection, project: sink?.projectId });
      suiteOf(name, { ...options, dataset }, body);
    });
  } else describe(name, () => suiteOf(name, { ...options, dataset: named }, body));
}

/** The suite's tests and hooks, registered inside its `describe` once its rows are known. */
function suiteOf<Row extends DatasetRow, Output>(name: string, options: Omit<DescribeEvalOptions<Row, Output>, 'dataset'> & { dataset: Dataset<Row> | undefined }, body: (() => void) | undefined): void {
  const { threshold } = options;
  const { afterAll, beforeAll, test } = vitestApi();
  const own = options.dataset?.rows ?? options.rows ?? [];
  const suite = { rows: [...own] as DatasetRow[], names: own.map((row, i) => options.testName?.(row, i) ?? `row ${i}: ${preview(row)}`), fixed: options.dataset !== undefined };
  const outer = collecting;
  collecting = suite;
  try {
    body?.();
  } finally {
    collecting = outer;
  }
  let run: { scoreRow: ScoreRow; end: () => void; result: Promise<EvaluationResult<Row, Output>>; link: (call?: string) => string | undefined } | undefined;
  let failed = 0;

  beforeAll(async () => {
    initFromEnv();
    const dataset = options.dataset ?? (suite.rows as Row[]);
    const recorder = await RunRecorder.prepare({ ...options, name, dataset }, 'describeEval');
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let started!: (begun: { scoreRow: ScoreRow; root: { id: string; traceId: string } | undefined }) => void;
    const scoring = new Promise<Parameters<typeof started>[0]>((resolve) => (started = resolve));
    const result = recorder.record(async (scoreRow, root) => {
      started({ scoreRow, root });
      await ended;
    }, { flushTimeoutMs: FLUSH_TIMEOUT_MS });
    const { scoreRow, root } = await Promise.race([scoring, result.then((): never => { throw new Error('describeEval: the run ended before its rows'); })]);
    const base = recorder.sink?.connection?.baseUrl;
    const link = (call?: string): string | undefined => (base && root ? viewerLink(base, recorder.sink!.projectId, root.traceId, call) : undefined);
    run = { scoreRow, end, result, link };
  });

  suite.rows.forEach((_, k) => {
    test(suite.names[k]!, async () => {
      if (!run) throw new Error('describeEval: the run did not start (see the error of beforeAll)');
      const outcome = await run.scoreRow(k);
      const why = rowVerdict(outcome, threshold);
      if (why === undefined) return;
      failed++;
      const at = run.link(outcome.callId);
      throw new Error(`${suite.names[k]}: ${why}${outcome.taskError === undefined ? `; output: ${preview(outcome.output)}` : ''}${at ? `\n  ${at}` : ''}`);
    }, options.timeoutMs);
  });

  afterAll(async () => {
    if (!run) return;
    run.end();
    const result = await run.result;
    console.log(summaryLine(name, result, failed, run.link()));
  }, FLUSH_TIMEOUT_MS + 10_000);
}
