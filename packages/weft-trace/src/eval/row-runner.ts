/**
 * One row of an evaluation: the task, then every scorer, as Weave's `Evaluation.predict_and_score` call with the task's and scorers' calls beneath it; each score also stored as feedback on the task's call.
 * @module
 */
import { diag } from '../internal/diag.js';
import { captureFeedbackPayload } from '../instrument/capture.js';
import { getTraceSettings } from '../instrument/trace-settings.js';
import { checkRequest } from '../check-request.js';
import { FeedbackCreateReq } from '../schema/feedback.js';
import { getSink } from '../instrument/sink.js';
import { newId } from '../internal/ids.js';
import { thenOf } from '../instrument/thenable.js';
import { isOp } from '../instrument/wrap.js';
import { op } from '../instrument/op.js';
import type { Op } from '../instrument/wrap.js';
import type { CurrentCall } from '../instrument/current-call.js';
import { scoresOf, type Scorer, type ScoreValue } from './scorer.js';
import { sourceDigest } from './source-digest.js';

type AnyFn = (...args: never[]) => unknown;
type Invokable = Op<(arg: unknown) => unknown>;

/** A scorer ready to run: its name, the op it is traced as, and its version (a digest of its source). */
export interface PreparedScorer {
  name: string;
  op: Invokable;
  /** sha256 of the function's source text, base64url with `-`→`X`, `_`→`Y`, no `=`: the `<digest>` of its op ref. */
  digest: string;
  /** `wandb.runnable.<name>`: the `feedback_type` of its scores. */
  feedbackType: string;
}

/** What one row produced. */
export interface RowOutcome {
  output: unknown;
  taskError: string | undefined;
  scores: Record<string, ScoreValue>;
  /** Raw results by scorer name (`scores` of the call's output, as Weave records them). */
  results: Record<string, unknown>;
  scorerErrors: Record<string, string> | undefined;
  latencyMs: number;
}

/** A single object argument recorded as the inputs themselves (`{row, output, expected}`), as Weave's `useParam0Object`. */
function unwrapSingle(inputs: Record<string, unknown>): Record<string, unknown> {
  const values = Object.values(inputs);
  const v = values[0];
  return values.length === 1 && v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : inputs;
}

/** The function as an op (itself when it is one already), named `fallback` when anonymous. */
export function asOp(fn: AnyFn, fallback: string, single: boolean): Invokable {
  if (isOp(fn)) return fn as unknown as Invokable;
  return op(fn as unknown as (arg: unknown) => unknown, { name: fn.name || fallback, ...(single ? { postprocessInputs: unwrapSingle } : {}) });
}

/** Prepares scorers; names must be unique (a second `exact_match` becomes `exact_match_2`). */
export function prepareScorers(scorers: ReadonlyArray<Scorer<never, never>>): PreparedScorer[] {
  const seen = new Map<string, number>();
  return scorers.map((fn, i) => {
    if (typeof fn !== 'function') throw new TypeError(`evaluate: scorers[${i}] must be a function, got ${typeof fn}`);
    // a scorer's name is part of op refs (`.../op/<name>:<digest>`): no `/` or `:` in it
    const base = (fn.name || `scorer_${i}`).replace(/[/:\s]/g, '_');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const name = n === 1 ? base : `${base}_${n}`;
    return { name, op: asOp(fn as AnyFn, base, true), digest: sourceDigest(fn as AnyFn), feedbackType: `wandb.runnable.${name}` };
  });
}

/**
 * Stores a score as feedback on the task's call, as Weave's scorers do: `wandb.runnable.<scorer>`, payload
 * `{output}`, `runnable_ref` the scorer's op ref, `call_ref` the scorer's call. A number or boolean (the usual score)
 * makes an item known to be valid, queued as is; anything else goes through `addFeedback()`'s checks and capture
 * (redaction, JSON-safe values). Never throws.
 */
function scoreFeedback(taskCallId: string, scorerCallId: string, scorer: PreparedScorer, result: unknown): void {
  try {
    const sink = getSink();
    if (!sink) return;
    const project = sink.projectId;
    const item = {
      id: newId(), project_id: project, svc_ref: `svc:///${project}/call/${taskCallId}`, call_ref: `svc:///${project}/call/${scorerCallId}`,
      runnable_ref: `svc:///${project}/op/${scorer.name}:${scorer.digest}`, feedback_type: scorer.feedbackType, payload: { output: result }, svc_user_id: sink.userId,
    };
    const scalar = typeof result === 'boolean' || (typeof result === 'number' && Number.isFinite(result));
    sink.feedback(scalar ? item : checkRequest(FeedbackCreateReq, { ...item, payload: captureFeedbackPayload(item.payload, getTraceSettings()) }, 'feedback'));
  } catch (e) {
    diag.warn(`evaluate: the ${scorer.name} score is not stored as feedback: ${message(e)}`);
  }
}

function message(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** What a row produced so far: the row, its task's output and call (or the task's error), and when it started. */
interface TaskDone {
  row: Record<string, unknown>;
  output: unknown;
  taskCall: CurrentCall | undefined;
  taskError: string | undefined;
  started: number;
}

/**
 * Runs the task on `row`, then the scorers (all started at once); never throws. Synchronous all the way (no
 * promise made) when the task and every scorer return synchronously, as evaluate()'s per-row cost is mostly
 * promise machinery otherwise; a promise when any of them returns one.
 */
export function runRow(row: Record<string, unknown>, task: Invokable, scorers: readonly PreparedScorer[]): RowOutcome | Promise<RowOutcome> {
  const started = performance.now();
  let invoked: unknown;
  try {
    invoked = task.invoke(row);
  } catch (e) {
    return score({ row, output: undefined, taskCall: undefined, taskError: message(e), started }, scorers);
  }
  if (!thenOf(invoked)) {
    const [output, taskCall] = invoked as [unknown, CurrentCall | undefined];
    return score({ row, output, taskCall, taskError: undefined, started }, scorers);
  }
  return (invoked as Promise<[unknown, CurrentCall | undefined]>).then(
    ([output, taskCall]) => score({ row, output, taskCall, taskError: undefined, started }, scorers),
    (e: unknown) => score({ row, output: undefined, taskCall: undefined, taskError: message(e), started }, scorers),
  );
}

/** Runs the scorers on what the task returned (none when it threw); each result is taken as it settles. */
function score(task: TaskDone, scorers: readonly PreparedScorer[]): RowOutcome | Promise<RowOutcome> {
  const outcome: RowOutcome = { output: task.output, taskError: task.taskError, scores: {}, results: {}, scorerErrors: undefined, latencyMs: performance.now() - task.started };
  if (task.taskError !== undefined) return outcome;
  const args = { row: task.row, output: task.output, expected: task.row['expected'] };
  let pending: Array<Promise<void>> | undefined;
  for (const s of scorers) {
    let invoked: unknown;
    try {
      invoked = s.op.invoke(args);
    } catch (e) {
      (outcome.scorerErrors ??= {})[s.name] = message(e);
      continue;
    }
    if (!thenOf(invoked)) take(outcome, task.taskCall, s, invoked as [unknown, CurrentCall | undefined]);
    else {
      (pending ??= []).push((invoked as Promise<[unknown, CurrentCall | undefined]>).then(
        (done) => take(outcome, task.taskCall, s, done),
        (e: unknown) => void ((outcome.scorerErrors ??= {})[s.name] = message(e)),
      ));
    }
  }
  return pending ? Promise.all(pending).then(() => outcome) : outcome;
}

/** Takes one scorer's result into the row's outcome and stores its score as feedback. */
function take(outcome: RowOutcome, taskCall: CurrentCall | undefined, s: PreparedScorer, [result, scorerCall]: [unknown, CurrentCall | undefined]): void {
  outcome.results[s.name] = result;
  Object.assign(outcome.scores, scoresOf(s.name, result));
  if (taskCall && scorerCall) scoreFeedback(taskCall.id, scorerCall.id, s, result);
}
