/**
 * Finds which items of a refused batch were invalid, from the `loc` of a client- or server-side validation error.
 * @module
 */
import { ValidationError } from '../api/core/api-errors.js';
import { RequestValidationError } from '../errors.js';

/**
 * Indexes of the batch items named by a validation error (`loc` `["batch", i, ...]` from the client,
 * `["body", "batch", i, ...]` from the server); empty when `err` is not one or names no item.
 */
export function invalidItemIndexes(err: unknown): Set<number> {
  const detail = err instanceof RequestValidationError || err instanceof ValidationError ? err.detail : [];
  const out = new Set<number>();
  for (const { loc } of detail) {
    const at = loc[0] === 'body' ? 1 : 0;
    const index = Number(loc[at + 1]);
    if (loc[at] === 'batch' && Number.isInteger(index)) out.add(index);
  }
  return out;
}
