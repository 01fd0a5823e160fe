/**
 * Scaffolding while the PostgreSQL stores land one by one: a stand-in store whose every method answers 501
 * naming the resource, so a missing implementation fails loudly instead of answering wrong. Remove a resource's
 * use once its PostgreSQL store is wired into `PgStore`.
 * @module
 */
import { HttpError } from '../http/http-error.js';

/**
 * A stand-in for the PostgreSQL store of `resource`: every method call throws HttpError 501.
 * @param resource - e.g. `feedback`, named in the error.
 */
export function pendingOnPostgres<T extends object>(resource: string): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      return () => {
        throw new HttpError(501, `the ${resource} store is not implemented on PostgreSQL yet (${resource}.${prop})`);
      };
    },
  });
}
