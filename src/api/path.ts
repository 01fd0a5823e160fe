/**
 * A tagged template for URL paths: interpolated values are percent-encoded, and `.`/`..` segments refused.
 * @module
 */
import { RequestValidationError } from './errors.js';

/**
 * Builds a path from a template, percent-encoding each value as one segment (`/` included).
 * @example
 * path`/v1/preview/models/${modelId}/log`
 * @throws {RequestValidationError} when a value is empty, `.` or `..`.
 */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, s, i) => {
    if (i === 0) return s;
    const value = values[i - 1]!;
    if (value === '' || value === '.' || value === '..') {
      throw new RequestValidationError([{ loc: ['path', String(i - 1)], msg: `path parameter must not be ${JSON.stringify(value)}`, type: 'value_error' }], 'path');
    }
    return out + encodeURIComponent(value) + s;
  }, '');
}
