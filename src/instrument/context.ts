/**
 * The AsyncLocalStorage context that carries the current call through await, callbacks and timers.
 * @module
 */
import { getGlobal } from '../internal/global.js';
import type { Call } from './call.js';

/** Immutable per-async-path context. A new object is made for every change. */
export interface TraceContext {
  /** The call whose body is running. */
  readonly call?: Call;
}

const storage = getGlobal<TraceContext, unknown>().storage;

/** The context of the running code, or `undefined` outside any op. */
export function activeContext(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `ctx` as the active context. */
export function runInContext<A extends unknown[], R>(ctx: TraceContext, fn: (...args: A) => R, ...args: A): R {
  return storage.run(ctx, fn, ...args);
}
