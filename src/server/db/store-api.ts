/**
 * The async seam between routes and stores: a resource's routes take an interface whose methods may answer a
 * value (the synchronous SQLite stores) or a Promise (the PostgreSQL stores), and `await` every call.
 * @module
 */

/** A value, or a Promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The methods `K` of a store class `T`, each allowed to answer a Promise of what it returns. A route written
 * against it awaits every call, so it works over both implementations.
 */
export type AsyncApi<T, K extends keyof T> = {
  [P in K]: T[P] extends (...args: infer A) => infer R ? (...args: A) => MaybePromise<Awaited<R>> : never;
};

/**
 * Runs `fn` on a value now, or once its Promise resolves: synchronous stores stay synchronous (no microtask),
 * asynchronous ones chain.
 */
export function andThen<T, U>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
