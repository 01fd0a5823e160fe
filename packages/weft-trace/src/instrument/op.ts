/**
 * op(): wraps a function — or, as @op / @op({...}), a class method — so each call is recorded with inputs,
 * output or exception, timing and its parent.
 * @module
 */
import { decorateLegacy, decorateStandard, isDecoratorContext, isLegacyCall, opDecorator, type OpDecorator } from './decorators.js';
import type { OpOptions } from './op-options.js';
import type { AnyFunction } from './trace-call.js';
import { wrap, type Op } from './wrap.js';

/** Keeps a decorator context (which has `kind`) from passing as options, so `@op` on a getter does not type-check. */
interface NotDecoratorContext {
  kind?: never;
}

/**
 * Wraps `fn` so that every call is traced: a start event (inputs by parameter name, parent and trace)
 * and an end event (output or exception, `summary.status_counts`). The wrapper calls exactly like `fn`
 * (same parameters, `this` and return type) and adds `invoke()`, which also returns the recorded call:
 * - sync functions stay sync; exceptions are recorded and rethrown unchanged;
 * - a returned native promise comes back as a promise of the same value that rejects alike, any other
 *   thenable as a Proxy that behaves the same (e.g. an SDK's `withResponse()` keeps working);
 * - generators, async generators, web `ReadableStream`s and async iterables (returned directly or by a
 *   promise) come back traced lazily: the call ends when the consumer finishes (`success`), stops early
 *   (`summary.status_counts.cancelled`) or the stream throws (`exception`); chunks are passed on unchanged.
 * Before `init()`, when disabled, or in a trace that sampling left out, it just calls `fn`.
 * @example
 * const add = op(async function add(a: number, b: number) { return a + b; });
 * await add(1, 2);                       // recorded as op "add" with inputs {a: 1, b: 2} and output 3
 * const [sum, call] = await add.invoke(1, 2); // call?.id names the recorded call
 * @throws {TypeError} when `fn` is not a function or `options.name` is empty (at wrap time, never at call time).
 * @see spec "Start calls in batch" (POST /call/upsert_batch) for the events it produces.
 */
export function op<F extends AnyFunction>(fn: F, options?: OpOptions<Parameters<F>, ReturnType<F>> & NotDecoratorContext): Op<F>;
/** `@op` on a class method with TS 5 standard decorators; the op is named `Class.method`. */
export function op<This, A extends unknown[], R>(
  method: (this: This, ...args: A) => R,
  context: ClassMethodDecoratorContext<This, (this: This, ...args: A) => R>,
): (this: This, ...args: A) => R;
/** `@op` on a class method with legacy `experimentalDecorators`; the op is named `Class.method`. */
export function op(target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
/**
 * `@op({...options})`: a method decorator (standard or legacy) with options.
 * @throws {TypeError} when `options` is not an object.
 */
export function op(options: OpOptions): OpDecorator;
export function op(...args: unknown[]): unknown {
  const [first, second] = args;
  if (isLegacyCall(args)) return decorateLegacy(first as object, second as string | symbol, args[2] as PropertyDescriptor, {});
  if (typeof first === 'function') {
    if (isDecoratorContext(second)) return decorateStandard(first, second, {});
    return wrap(first as AnyFunction, (second ?? {}) as OpOptions);
  }
  if (args.length === 1 && first !== null && typeof first === 'object') return opDecorator(first as OpOptions);
  throw new TypeError(`op(): expected a function, got ${first === null ? 'null' : typeof first} (or one options object, for @op({...}))`);
}
