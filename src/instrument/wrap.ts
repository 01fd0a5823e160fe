/**
 * Builds the traced function behind op() and @op: same name, length and `this`, plus `invoke()` returning `[result, call]`.
 * @module
 */
import { diag } from '../internal/diag.js';
import type { OpMeta } from './capture.js';
import { callView, type CurrentCall } from './current-call.js';
import { InputKeys } from './input-keys.js';
import type { OpOptions } from './op-options.js';
import { parameterNames } from './param-names.js';
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

/** Where a decorated method lives, so its op name can become `Class.method`. */
export interface MethodSite {
  /** The method's name as written (`#name` for private methods). */
  label: string;
  /** The key it is stored under on the class or prototype; `undefined` for private methods. */
  key: string | symbol | undefined;
  /** The class name when known at decoration time (legacy decorators). */
  className?: string | undefined;
}

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
  const meta: OpMeta = {
    name: options.name ?? opName(fn, site),
    options: options as OpOptions<unknown[], unknown>,
    inputKeys: new InputKeys(options.parameterNames ?? parameterNames(fn)),
  };
  const traced = function (this: unknown, ...args: unknown[]): unknown {
    const sink = getSink();
    if (sink == null) {
      if (sink === undefined && !warnedNoInit) warnNoInit();
      return fn.apply(this, args);
    }
    return traceCall(fn, meta, this, args, sink);
  };
  if (site && options.name === undefined && site.className === undefined) {
    meta.resolveName = (self) => `${ownerName(self, site.key, traced)}.${site.label}`;
  }
  const invoke = function invoke(this: unknown, ...args: unknown[]): unknown {
    let view: CurrentCall | undefined;
    const self = this === traced ? undefined : this;
    const sink = getSink();
    let result: unknown;
    if (sink == null) {
      if (sink === undefined && !warnedNoInit) warnNoInit();
      result = fn.apply(self, args);
    } else {
      result = traceCall(fn, meta, self, args, sink, (call) => (view = callView(call)));
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

/** Default op name: the function's name; for a method, `Class.method` (or `method` until the class is known). */
function opName(fn: Function, site: MethodSite | undefined): string {
  if (site) return site.className ? `${site.className}.${site.label}` : site.label;
  return fn.name || 'anonymous';
}

/**
 * The class that defines the method `traced` under `key`, found from `this` (an instance or, for a static
 * method, the class): the first object on the prototype chain that owns the method. Private methods, and
 * methods not found there, use `this`'s own class.
 */
function ownerName(self: unknown, key: string | symbol | undefined, traced: Function): string {
  if (key !== undefined) {
    for (let o: unknown = self; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
      if (Object.getOwnPropertyDescriptor(o, key)?.value === traced) return classOf(o);
    }
  }
  return classOf(self);
}

function classOf(o: unknown): string {
  const name = typeof o === 'function' ? o.name : (o as { constructor?: { name?: unknown } } | null | undefined)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'anonymous';
}
