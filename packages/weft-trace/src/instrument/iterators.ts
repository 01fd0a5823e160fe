/**
 * Traced iterators: each next()/return()/throw() runs in the call's context and tells the call about chunks and the end.
 * @module
 */
import { runInContext, type TraceContext } from './context.js';

/** What a traced stream reports to its call. Implementations never throw. */
export interface StreamObserver {
  /**
   * The context each `next()` / `return()` / `throw()` of the stream runs in (the call's body's). `undefined`:
   * the consumer's own, with no context switch per chunk; for streams whose steps run no traced code
   * (an SDK reading a response body).
   */
  readonly ctx: TraceContext | undefined;
  /** A chunk the consumer received. */
  chunk(value: unknown): void;
  /** The stream is exhausted. */
  complete(): void;
  /** The stream threw `err`. */
  fail(err: unknown): void;
  /** The consumer stopped early (`break`, `return()`, `cancel()`). */
  cancel(): void;
  /**
   * Async iterators only: what the consumer gets for a chunk read from the source: the chunk itself, a
   * replacement (the same chunk without what a wrapper asked for and the caller did not), or {@link SKIP}
   * for a chunk the consumer must not see at all (the observer records it itself; the iterator reads on).
   * Called before {@link StreamObserver.chunk}, which then gets the value handed on.
   */
  pass?(value: unknown): unknown;
}

/** What {@link StreamObserver.pass} returns for a chunk the consumer must not see. */
export const SKIP: unique symbol = Symbol('weft.skipChunk');

type Method = 'next' | 'return' | 'throw';
type AnyIterator = Iterator<unknown> | AsyncIterator<unknown>;

/** Calls `it[method](...args)` (passing no argument when none was given, as the caller did). */
function callMethod(it: AnyIterator, method: Method, args: unknown[]): unknown {
  const f = it[method] as ((...a: unknown[]) => unknown) | undefined;
  return (f as (...a: unknown[]) => unknown).apply(it, args);
}

/** `it[method](...args)` in `ctx`, or (`undefined`) in the caller's own context; no rest array on the hot path. */
function callIn(ctx: TraceContext | undefined, it: AnyIterator, method: Method, args: unknown[]): unknown {
  return ctx === undefined ? callMethod(it, method, args) : runInContext(ctx, callMethod, it, method, args);
}

/** `fn(...args)` as a step of a stream observed by one whose context is `ctx`: in it, or (`undefined`) in the caller's own. */
export function runStep<A extends unknown[], R>(ctx: TraceContext | undefined, fn: (...args: A) => R, ...args: A): R {
  return ctx === undefined ? fn(...args) : runInContext(ctx, fn, ...args);
}

/** Reads `done` of an iterator result; `undefined` when it is not an object or reading throws. */
function doneOf(r: unknown): boolean | undefined {
  if (r === null || typeof r !== 'object') return undefined;
  try {
    return Boolean((r as IteratorResult<unknown>).done);
  } catch {
    return undefined;
  }
}

/** Tells `obs` about one result: a chunk, or the end. Returns whether the stream is over. */
function observe(obs: StreamObserver, r: unknown, method: Method): boolean {
  const done = doneOf(r);
  if (done === undefined) return false;
  if (done) {
    if (method === 'return') obs.cancel();
    else obs.complete();
    return true;
  }
  if (method === 'return') {
    obs.cancel();
    return true;
  }
  obs.chunk((r as IteratorYieldResult<unknown>).value);
  return false;
}

/** What both traced iterators hold: the source iterator, the observer, and whether the stream is over. */
abstract class Traced<I extends AnyIterator> {
  protected over = false;
  constructor(
    protected readonly it: I,
    protected readonly obs: StreamObserver,
  ) {}

  protected fail(err: unknown): void {
    this.over = true;
    this.obs.fail(err);
  }
}

/** A sync iterator (e.g. a generator) traced lazily: nothing runs until the consumer calls `next()`. */
export class TracedIterator extends Traced<Iterator<unknown>> implements IterableIterator<unknown> {

  [Symbol.iterator](): this {
    return this;
  }

  next(...args: [] | [unknown]): IteratorResult<unknown> {
    return this.step('next', args) as IteratorResult<unknown>;
  }

  return(value?: unknown): IteratorResult<unknown> {
    if (typeof this.it.return !== 'function') {
      if (!this.over) this.settle({ done: true, value }, 'return');
      return { done: true, value };
    }
    return this.step('return', [value]) as IteratorResult<unknown>;
  }

  throw(err?: unknown): IteratorResult<unknown> {
    if (typeof this.it.throw !== 'function') {
      if (!this.over) this.fail(err);
      throw err;
    }
    return this.step('throw', [err]) as IteratorResult<unknown>;
  }

  private step(method: Method, args: unknown[]): unknown {
    if (this.over) return callMethod(this.it, method, args);
    let r: unknown;
    try {
      r = callIn(this.obs.ctx, this.it, method, args);
    } catch (err) {
      this.fail(err);
      throw err;
    }
    this.settle(r, method);
    return r;
  }

  private settle(r: unknown, method: Method): void {
    if (observe(this.obs, r, method)) this.over = true;
  }
}

/** An async iterator (async generator, SDK stream) traced lazily; results are handed on unchanged. */
export class TracedAsyncIterator extends Traced<AsyncIterator<unknown>> implements AsyncIterableIterator<unknown> {

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(value?: unknown): Promise<IteratorResult<unknown>> {
    // `arguments`, not a rest array: nothing allocated per chunk; no argument is passed on when none was given
    if (arguments.length === 0) return this.obs.ctx === undefined && !this.over ? this.nextPlain() : this.step('next', []);
    return this.step('next', [value]);
  }

  /** The common step (no argument, no context to switch to): the source's `next()` and one `then` observing it. */
  private nextPlain(): Promise<IteratorResult<unknown>> {
    let pending: Promise<IteratorResult<unknown>>;
    try {
      pending = this.it.next();
    } catch (err) {
      this.fail(err);
      throw err;
    }
    return Promise.resolve(pending).then(this.onNext, this.onError);
  }

  return(value?: unknown): Promise<IteratorResult<unknown>> {
    if (typeof this.it.return !== 'function') {
      if (!this.over) {
        this.over = true;
        this.obs.cancel();
      }
      return Promise.resolve({ done: true, value });
    }
    return this.step('return', [value]);
  }

  throw(err?: unknown): Promise<IteratorResult<unknown>> {
    if (typeof this.it.throw !== 'function') {
      if (!this.over) this.fail(err);
      return Promise.reject(err as Error);
    }
    return this.step('throw', [err]);
  }

  private step(method: Method, args: unknown[]): Promise<IteratorResult<unknown>> {
    let pending: Promise<IteratorResult<unknown>>;
    try {
      pending = callIn(this.obs.ctx, this.it, method, args) as Promise<IteratorResult<unknown>>;
    } catch (err) {
      if (!this.over) this.fail(err);
      throw err;
    }
    if (this.over) return pending;
    if (method === 'next') return Promise.resolve(pending).then(this.onNext, this.onError);
    return Promise.resolve(pending).then((r) => {
      if (!this.over && observe(this.obs, r, method)) this.over = true;
      return r;
    }, this.onError);
  }

  /** A `next()` result: a chunk to skip (read on), a chunk, or the end. Made once per iterator, not per chunk. */
  private readonly onNext = (r: IteratorResult<unknown>): IteratorResult<unknown> | Promise<IteratorResult<unknown>> => {
    if (this.over) return r;
    const obs = this.obs;
    const done = doneOf(r);
    if (done === undefined) return r;
    if (done) {
      this.over = true;
      obs.complete();
      return r;
    }
    let value = (r as IteratorYieldResult<unknown>).value;
    if (obs.pass !== undefined) {
      const passed = obs.pass(value);
      if (passed === SKIP) return this.next();
      if (passed !== value) {
        value = passed;
        r = { done: false, value };
      }
    }
    obs.chunk(value);
    return r;
  };

  private readonly onError = (err: unknown): never => {
    if (!this.over) this.fail(err);
    throw err;
  };
}
