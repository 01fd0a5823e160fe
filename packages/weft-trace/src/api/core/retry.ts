/**
 * Retry rules for HTTP requests, as readable predicates: which answers to retry and how long to wait.
 * @module
 */
import { APIConnectionError, APIError, APIUserAbortError } from './api-errors.js';

/**
 * How a request is retried: exponential backoff with full jitter between `0` and
 * `min(maxDelayMs, initialDelayMs * 2^(attempt-1))`, and no retry that would start after
 * `budgetMs` since the first attempt.
 */
export interface RetryPolicy {
  /** Backoff ceiling of the first retry, in ms (min 0). @defaultValue 500 */
  initialDelayMs: number;
  /** Largest backoff ceiling, in ms (min 0). @defaultValue 8000 */
  maxDelayMs: number;
  /**
   * Total time a request may spend on retries, in ms from its first attempt: a retry whose wait
   * would end later is not made and the last error is thrown. @defaultValue Infinity (only `maxRetries` limits)
   */
  budgetMs: number;
}

/** Defaults of {@link RetryPolicy}; the exporter's come from its `retry*` init options. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { initialDelayMs: 500, maxDelayMs: 8_000, budgetMs: Infinity };

/**
 * Longest wait, in ms, a request without a time budget (`budgetMs` Infinity, the plain client's default)
 * makes for a `Retry-After`; a longer one ends the retries with the error instead of waiting for hours.
 * With a budget (the exporter's), the budget decides: a wait that would end past it is not made.
 */
export const MAX_UNBUDGETED_RETRY_AFTER_MS = 60_000;

/** Statuses that are worth another try: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Whether a failed request may succeed if sent again: no answer at all (refused, reset, timeout)
 * or a retryable status, unless the server said otherwise with `x-should-retry` (the same rule the
 * transport retries by). A user abort is not retryable.
 */
export function isRetryableError(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return false;
  if (err instanceof APIConnectionError) return true;
  if (!(err instanceof APIError) || err.status === undefined) return false;
  return serverSaysRetry(err.headers) ?? isRetryableStatus(err.status);
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
 * (seconds or an HTTP date), honoured however long (the caller's budget decides whether to wait that
 * long; see {@link MAX_UNBUDGETED_RETRY_AFTER_MS}), else exponential backoff with full jitter.
 */
export function retryDelayMs(
  attempt: number,
  headers: Record<string, string | string[] | undefined>,
  policy: Pick<RetryPolicy, 'initialDelayMs' | 'maxDelayMs'> = DEFAULT_RETRY_POLICY,
): number {
  const fromHeader = retryAfterMs(headers);
  if (fromHeader !== undefined && fromHeader >= 0) return fromHeader;
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into ms, or `undefined` when neither is usable. */
export function retryAfterMs(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const ms = Number(first(headers['retry-after-ms']));
  if (Number.isFinite(ms) && first(headers['retry-after-ms']) !== undefined) return ms;
  const raw = first(headers['retry-after']);
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
