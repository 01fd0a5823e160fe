/**
 * The AsyncLocalStorage context that carries the current call through await, callbacks and timers.
 * @module
 */
import { getGlobal } from '../internal/global.js';
import type { Call } from './call.js';

/** The run a call belongs to (`svc_run_id`, `svc_run_step`); `step` changes with `setRunStep()`. */
export interface RunState {
  readonly runId: string;
  step: number | undefined;
}

/** Immutable per-async-path context. A new object is made for every change (except `run.step`). */
export interface TraceContext {
  /** The call whose body is running. */
  readonly call?: Call | undefined;
  /** True inside a trace that sampling left out: nothing below it is recorded. */
  readonly unsampled?: boolean;
  /** Attributes from `withAttributes()`, merged from the outermost in. */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** `thread_id` and `turn_id` from `withThread()`. */
  readonly threadId?: string;
  readonly turnId?: string | undefined;
  /** The run from `withRun()`. */
  readonly run?: RunState;
  /** The rollout of `trajectory()` (trajectories/) the code runs in: told of each finished model request. */
  readonly rollout?: ExchangeRecorder;
}

/** What the model-call wrappers tell a rollout: one finished request (its body as sent, the response or folded stream). */
export interface ExchangeRecorder {
  /** `format`: `openai.chat`, `openai.responses`, `anthropic.messages` or `ai`; never throws. */
  exchange(format: string, request: Readonly<Record<string, unknown>>, response: unknown): void;
}

const storage = getGlobal().storage;

/** The context of the running code, or `undefined` outside any op. */
export function activeContext(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `ctx` as the active context. */
export function runInContext<A extends unknown[], R>(ctx: TraceContext, fn: (...args: A) => R, ...args: A): R {
  return storage.run(ctx, fn, ...args);
}
