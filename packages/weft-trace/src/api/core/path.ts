/**
 * Fills the `:name` parameters of an endpoint path: values percent-encoded, `.`/`..` segments refused.
 * @module
 */
import { RequestValidationError } from '../../errors.js';

/**
 * Replaces each `:name` segment of `template` with `params[name]`, percent-encoded as one segment (`/` included).
 * @example
 * fillPath(ENDPOINTS.trajectoryLog, { model_id: modelId }) // '/v1/preview/models/<encoded>/log'
 * @throws {RequestValidationError} when a value is missing, empty, `.` or `..`.
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '' || value === '.' || value === '..') {
      throw new RequestValidationError([{ loc: ['path', name], msg: `path parameter must not be ${JSON.stringify(value ?? '')}`, type: 'value_error' }], 'path');
    }
    return encodeURIComponent(value);
  });
}
