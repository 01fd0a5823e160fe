/**
 * Ends a call when the promise or thenable its function returned settles, without changing what the caller gets.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';

/** Told how a returned thenable settled. */
export interface Settler {
  /** The thenable fulfilled with `value`; returns what the caller gets instead (the same value, or a traced stream). */
  resolved(value: unknown): unknown;
  /** The thenable rejected with `err`. */
  fail(err: unknown): void;
}

/** Reads `v.then` when `v` could be a thenable; `undefined` when it is not one or reading throws. */
export function thenOf(v: unknown): Function | undefined {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return undefined;
  try {
    const then = (v as { then?: unknown }).then;
    return typeof then === 'function' ? then : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A plain native promise: no subclass, no enumerable properties to keep (such as those `Object.assign`
 * adds). Symbol keys are not looked at: Node's async_hooks (on whenever an AsyncLocalStorage is in use)
 * put some on every promise. A `for…in` costs a fraction of listing the keys.
 */
function isPlainPromise(v: object): v is Promise<unknown> {
  if (Object.getPrototypeOf(v) !== Promise.prototype) return false;
  for (const _ in v) return false;
  return true;
}

/**
 * Watches `result` and tells `settle` when it settles (a stream it fulfils with is handed on traced).
 * - A plain native promise is replaced by a promise of the same value that rejects alike, so an
 *   unhandled rejection stays unhandled.
 * - Any other thenable (a Promise subclass, a promise with extra properties, a lazy query builder) is
 *   returned as a Proxy that behaves the same; its `then` is only called when the caller calls it, so
 *   lazy thenables do not run early, and the call ends when the caller consumes it.
 */
export function watchThenable(result: object, then: Function, settle: Settler): unknown {
  if (isPlainPromise(result)) {
    return result.then(
      (value) => settle.resolved(value),
      (err: unknown) => {
        settle.fail(err);
        throw err;
      },
    );
  }
  try {
    return proxyThen(result, then, settle);
  } catch (err) {
    diag.warn(`could not watch a returned thenable: ${safeMessage(err)}`);
    return result;
  }
}

/** Methods that must see the proxy as `this`, so that they go through the wrapped `then`. */
const UNBOUND = new Set<PropertyKey>(['then', 'catch', 'finally', 'constructor']);

function proxyThen(target: object, then: Function, settle: Settler): object {
  const wrappedThen = function then_(onFulfilled?: unknown, onRejected?: unknown): unknown {
    return then.call(
      target,
      (value: unknown) => {
        const v = settle.resolved(value);
        return typeof onFulfilled === 'function' ? onFulfilled(v) : v;
      },
      (err: unknown) => {
        settle.fail(err);
        if (typeof onRejected === 'function') return onRejected(err);
        throw err;
      },
    );
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'then') return wrappedThen;
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && !UNBOUND.has(prop) ? watchedMethod(t, v, settle) : v;
    },
  });
}

/**
 * A method of the target, bound to it; when it returns a thenable (e.g. `withResponse()`, or a builder
 * step like `where()` returning the builder), that one is watched too, so the call ends whichever way
 * the caller consumes the result (the first settlement is recorded).
 */
function watchedMethod(target: object, method: Function, settle: Settler): Function {
  return function watched(...args: unknown[]): unknown {
    const result: unknown = method.apply(target, args);
    const then = thenOf(result);
    return then ? watchThenable(result as object, then, settle) : result;
  };
}
