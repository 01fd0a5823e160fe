/**
 * Builds the traced function behind op() and @op: same name, length and `this`, plus `invoke()` returning `[result, call]`.
 * @module
 */
import { diag } from '../internal/diag.js';
import { callView, type CurrentCall } from './current-call.js';
import { defineOp, nameFromThis, type MethodSite } from './op-definition.js';
import type { OpOptions } from './op-options.js';
import { getSink } from './sink.js';
import { thenOf } from './thenable.js';
import { traceCall, type AnyFunction } from './trace-call.js';

const WRAPPED = Symbol.for('weft.op');

/** What `invoke()` returns: `[result, call]`, or a promise of it when the function returns a thenable. */
export type Invoked<R> = R extends PromiseLike<infer T> ? Promise<[T, CurrentCall | undefined]> : [R, CurrentCall | undefined];

/** A traced function: exactly `F` to callers, plus `invoke()`. */
export type Op<F extends AnyFunction> = F & {
  /**
   * Calls the op like a plain call and also returns the recorded call (`{id, traceId, parentId, opName}`),
   * e.g. to attach feedback to it; the call is `undefined` when nothing was recorded (before `init()`,
   * disabled, or not sampled). Throws or rejects exactly as the function does.
   */
  invoke(this: ThisParameterType<F>, ...args: Parameters<F>): Invoked<ReturnType<F>>;
};

/** True for functions made by op(). */
export function isOp(fn: unknown): boolean {
  return typeof fn === 'function' && (fn as { [WRAPPED]?: boolean })[WRAPPED] === true;
}

/**
 * Wraps `fn` (already checked to be a function). `site` is given for decorated methods.
 * @throws {TypeError} when `options.name` is given and empty.
 */
export function wrap<F extends AnyFunction>(fn: F, options: OpOptions<Parameters<F>, ReturnType<F>>, site?: MethodSite): Op<F> {
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '')) {
    throw new TypeError(`op(): option name must be a non-empty string, got ${JSON.stringify(options.name)} (${typeof options.name})`);
  }
  if (isOp(fn)) {
    diag.warn(`op(): "${fn.name}" is already an op; returning it as is (options of the second op() are ignored)`);
    return fn as Op<F>;
  }
  const op = defineOp(fn, options as OpOptions<unknown[], unknown>, site);
  const traced = function (this: unknown, ...args: unknown[]): unknown {
    const sink = getSink();
    if (sink == null) {
      if (sink === undefined && !warnedNoInit) warnNoInit();
      return fn.apply(this, args);
    }
    return traceCall(fn, op, this, args, sink);
  };
  if (site) nameFromThis(op, site, traced);
  const invoke = function invoke(this: unknown, ...args: unknown[]): unknown {
    let view: CurrentCall | undefined;
    const self = this === traced ? undefined : this;
    const sink = getSink();
    let result: unknown;
    if (sink == null) {
      if (sink === undefined && !warnedNoInit) warnNoInit();
      result = fn.apply(self, args);
    } else {
      result = traceCall(fn, op, self, args, sink, (call) => (view = callView(call)));
    }
    return thenOf(result) ? Promise.resolve(result).then((value) => [value, view]) : [result, view];
  };
  Object.defineProperty(traced, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(traced, 'length', { value: fn.length, configurable: true });
  Object.defineProperty(traced, WRAPPED, { value: true });
  Object.defineProperty(traced, 'invoke', { value: invoke, configurable: true, writable: true });
  return traced as unknown as Op<F>;
}

/** Set once op() ran before init() (so that path costs one flag read). */
let warnedNoInit = false;

function warnNoInit(): void {
  warnedNoInit = true;
  diag.once('no-init', 'warn', 'op() called before init(): calls run but are not recorded. Call init({ project }) first.');
}
