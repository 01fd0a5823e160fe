/**
 * The root of every error weft throws, and the errors raised before any request (bad options, bad bodies).
 * HTTP answers map to `APIError` and its subclasses in `api/core/api-errors.ts`.
 * @module
 */
import type { DetailItem } from './schema/validate.js';

/** Root of every error weft throws. */
export class WeftError extends Error {
  override name = 'WeftError';
}

/** A request failed client-side validation and was not sent; `detail` has the server's shape (`[{loc, msg, type}]`). */
export class RequestValidationError extends WeftError {
  override name = 'RequestValidationError';
  constructor(readonly detail: DetailItem[], what: string) {
    super(`invalid ${what}: ${detail.map((d) => `${d.loc.join('.') || '(root)'}: ${d.msg}`).join('; ')}`);
  }
}

/** Misconfiguration found by `init()` or `new Client()`: names the option, what was expected and what was got. */
export class ConfigError extends WeftError {
  override name = 'ConfigError';
}
