/**
 * The async seam between routes and stores: a store over either engine (`W` of db/sql-runner.ts) answers a value
 * (the synchronous SQLite stores) or a Promise (the PostgreSQL stores), and routes `await` every call.
 * @module
 */

/** A value, or a Promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Runs `fn` on a value now, or once its Promise resolves: synchronous stores stay synchronous (no microtask),
 * asynchronous ones chain.
 */
export function andThen<T, U>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
