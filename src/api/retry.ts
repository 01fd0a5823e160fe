/**
 * Retry rules for HTTP requests, as readable predicates: which answers to retry and how long to wait.
 * @module
 */

/** Statuses that are worth another try: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Honours `x-should-retry: true|false` when the server sends it; otherwise `undefined`. */
export function serverSaysRetry(headers: Record<string, string | string[] | undefined>): boolean | undefined {
  const v = headers['x-should-retry'];
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/**
 * Delay before retry number `attempt` (1-based), in ms: `retry-after-ms`, then `retry-after`
 * (seconds or an HTTP date), else exponential backoff with full jitter, capped at `capMs`.
 */
export function retryDelayMs(
  attempt: number,
  headers: Record<string, string | string[] | undefined>,
  baseMs = 500,
  capMs = 8_000,
): number {
  const fromHeader = retryAfterMs(headers);
  if (fromHeader !== undefined && fromHeader >= 0 && fromHeader <= 60_000) return fromHeader;
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

/** Reads `retry-after-ms` or `retry-after` into ms, or `undefined` when neither is usable. */
export function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const ms = Number(first(headers['retry-after-ms']));
  if (Number.isFinite(ms) && first(headers['retry-after-ms']) !== undefined) return ms;
  const raw = first(headers['retry-after']);
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
