/**
 * Options of the typed client, each with its env-var fallback, default and unit.
 * @module
 */

/** Options of `new Client()`. */
export interface ClientOptions {
  /**
   * Base URL of the service (the local `weft serve` or the hosted service).
   * Env: `WEFT_BASE_URL`. @defaultValue `http://127.0.0.1:6345`
   */
  baseUrl?: string;
  /**
   * API key: sent as Basic `api:<key>` on core endpoints and as Bearer on `/v1/preview/*`.
   * Env: `WEFT_API_KEY`. @defaultValue none (no Authorization header)
   */
  apiKey?: string;
  /** Time to wait for response headers and between body chunks, in milliseconds (min 1). @defaultValue 60000 */
  timeoutMs?: number;
  /**
   * Retries after a connection error, 408, 409, 429 or 5xx (min 0); delays honour `retry-after-ms` and
   * `retry-after`, else exponential backoff with full jitter (`DEFAULT_RETRY_POLICY`; per request: `retry`).
   * @defaultValue 2 (the exporter that `init()` starts has its own `maxRetries`, within `retryBudgetMs`)
   */
  maxRetries?: number;
}

/** Default base URL: a local `weft serve`. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:6345';
