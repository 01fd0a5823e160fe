/**
 * Ends a call when the promise or thenable its function returned settles, without changing what the caller gets.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';

/** Called once with the settled value, or with the rejection reason. */
export type Settle = (value: unknown, err: unknown, failed: boolean) => void;

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

/** A plain native promise: no subclass, no own properties to keep. */
function isPlainPromise(v: object): v is Promise<unknown> {
  return Object.getPrototypeOf(v) === Promise.prototype && Reflect.ownKeys(v).length === 0;
}

/**
 * Watches `result` and calls `settle` when it settles.
 * - A plain native promise is replaced by a promise of the same value that rejects alike, so an
 *   unhandled rejection stays unhandled.
 * - Any other thenable (a Promise subclass, a promise with extra properties, a lazy query builder) is
 *   returned as a Proxy that behaves the same; its `then` is only called when the caller calls it, so
 *   lazy thenables do not run early, and the call ends when the caller consumes it.
 */
export function watchThenable(result: object, then: Function, settle: Settle): unknown {
  if (isPlainPromise(result)) {
    return result.then(
      (value) => {
        settle(value, undefined, false);
        return value;
      },
      (err: unknown) => {
        settle(undefined, err, true);
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

function proxyThen(target: object, then: Function, settle: Settle): object {
  const wrappedThen = function then_(onFulfilled?: unknown, onRejected?: unknown): unknown {
    return then.call(
      target,
      (value: unknown) => {
        settle(value, undefined, false);
        return typeof onFulfilled === 'function' ? onFulfilled(value) : value;
      },
      (err: unknown) => {
        settle(undefined, err, true);
        if (typeof onRejected === 'function') return onRejected(err);
        throw err;
      },
    );
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'then') return wrappedThen;
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && !UNBOUND.has(prop) ? v.bind(t) : v;
    },
  });
}
