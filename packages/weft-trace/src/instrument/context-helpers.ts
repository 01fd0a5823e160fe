/**
 * Context helpers: attributes, thread/turn and run/step for the calls started inside a function.
 * @module
 */
import { diag } from '../internal/diag.js';
import { activeContext, runInContext, type TraceContext } from './context.js';

export { getCurrentCall, requireCurrentCall, type CurrentCall } from './current-call.js';

function checkFunction(helper: string, fn: unknown): void {
  if (typeof fn !== 'function') throw new TypeError(`${helper}(): expected a function to run, got ${fn === null ? 'null' : typeof fn}`);
}

function checkString(helper: string, what: string, v: unknown): void {
  if (typeof v !== 'string' || v === '') throw new TypeError(`${helper}(): ${what} must be a non-empty string, got ${JSON.stringify(v) ?? String(v)} (${typeof v})`);
}

function checkStep(helper: string, step: unknown): void {
  if (step !== undefined && !(Number.isSafeInteger(step) && (step as number) >= 0)) {
    throw new TypeError(`${helper}(): step must be an integer >= 0, got ${JSON.stringify(step) ?? String(step)} (${typeof step})`);
  }
}

function run<R>(ctx: TraceContext, fn: () => R): R {
  return runInContext(ctx, fn);
}

/**
 * Runs `fn` with `attributes` added to every call started inside it (at any depth, through `await`),
 * merged over the attributes of enclosing `withAttributes()` (inner keys win; an op's own `attributes`
 * option wins over both). Values are serialized and redacted like inputs. Returns what `fn` returns.
 * @example withAttributes({ env: 'prod', tenant: 'acme' }, () => agent.run(task))
 * @throws {TypeError} when `attributes` is not a plain object or `fn` not a function (before running `fn`).
 */
export function withAttributes<R>(attributes: Record<string, unknown>, fn: () => R): R {
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new TypeError(`withAttributes(): attributes must be an object, got ${attributes === null ? 'null' : Array.isArray(attributes) ? 'an array' : typeof attributes}`);
  }
  checkFunction('withAttributes', fn);
  const ctx = activeContext();
  return run({ ...ctx, attributes: { ...ctx?.attributes, ...attributes } }, fn);
}

/** Options of {@link withThread}. */
export interface ThreadOptions {
  /** `turn_id` of the calls inside. @defaultValue the id of each outermost call inside the thread (one turn per trace) */
  turnId?: string;
}

/**
 * Runs `fn` with `thread_id` (and `turn_id`) set on every call started inside it. Without `turnId`, each
 * outermost call inside the thread starts a turn: its own id is the `turn_id` of it and its descendants.
 * @example await withThread(sessionId, () => chat(message), { turnId: requestId })
 * @throws {TypeError} when `threadId` or `turnId` is not a non-empty string, or `fn` not a function.
 */
export function withThread<R>(threadId: string, fn: () => R, options: ThreadOptions = {}): R {
  checkString('withThread', 'threadId', threadId);
  if (options.turnId !== undefined) checkString('withThread', 'turnId', options.turnId);
  checkFunction('withThread', fn);
  return run({ ...activeContext(), threadId, turnId: options.turnId }, fn);
}

/** The run of {@link withRun}. */
export interface RunOptions {
  /** `svc_run_id` of every call inside, e.g. `acme/demo/run-7`. */
  runId: string;
  /** `svc_run_step` (integer >= 0) until {@link setRunStep} changes it. @defaultValue none */
  step?: number;
}

/**
 * Runs `fn` with `svc_run_id` (and `svc_run_step`) set on every call started inside it, e.g. one RL or
 * training run whose steps advance with {@link setRunStep}.
 * @example await withRun({ runId: 'acme/demo/run-7', step: 0 }, async () => { for (...) { setRunStep(i); await rollout(); } })
 * @throws {TypeError} when `runId` is not a non-empty string, `step` not an integer >= 0, or `fn` not a function.
 */
export function withRun<R>(options: RunOptions, fn: () => R): R {
  checkString('withRun', 'runId', options?.runId);
  checkStep('withRun', options.step);
  checkFunction('withRun', fn);
  return run({ ...activeContext(), run: { runId: options.runId, step: options.step } }, fn);
}

/**
 * Sets `svc_run_step` for calls started from now on in the enclosing {@link withRun} (everywhere in that
 * run, including concurrent branches). Outside `withRun` it does nothing and warns once.
 * @throws {TypeError} when `step` is not an integer >= 0.
 */
export function setRunStep(step: number): void {
  checkStep('setRunStep', step);
  const state = activeContext()?.run;
  if (!state) {
    diag.once('set-run-step', 'warn', 'setRunStep() called outside withRun(): ignored');
    return;
  }
  state.step = step;
}
