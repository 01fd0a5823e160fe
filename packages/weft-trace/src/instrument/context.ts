/**
 * The AsyncLocalStorage context that carries the current call through await, callbacks and timers.
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { getGlobal } from '../internal/global.js';
import type { CallContext } from './call.js';

/**
 * Immutable per-async-path context. A new object is made for every change (except `run.step`). What a call
 * reads from it (the running call, thread, turn and run) is {@link CallContext}, declared by call.ts.
 */
export interface TraceContext extends CallContext {
  /** True inside a trace that sampling left out: nothing below it is recorded. */
  readonly unsampled?: boolean;
  /** Attributes from `withAttributes()`, merged from the outermost in. */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** The rollout of `trajectory()` (trajectories/) the code runs in: told of each finished model request. */
  readonly rollout?: ExchangeRecorder;
}

/** What the model-call wrappers tell a rollout: one finished request (its body as sent, the response or folded stream). */
export interface ExchangeRecorder {
  /** `format`: `openai.chat`, `openai.responses`, `anthropic.messages` or `ai`; never throws. */
  exchange(format: string, request: Readonly<Record<string, unknown>>, response: unknown): void;
}

/** The registry's context slot, which this module owns (typed here: the registry sits below it). */
const storage = getGlobal().storage as AsyncLocalStorage<TraceContext>;

/** The context of the running code, or `undefined` outside any op. */
export function activeContext(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `ctx` as the active context. */
export function runInContext<A extends unknown[], R>(ctx: TraceContext, fn: (...args: A) => R, ...args: A): R {
  return storage.run(ctx, fn, ...args);
}
