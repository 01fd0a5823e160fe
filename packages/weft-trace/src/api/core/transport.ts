/**
 * All HTTP of the client: one request through `http-client.ts` (undici with keep-alive, or the runtime's `fetch`),
 * auth per endpoint, retries, timeouts and typed errors.
 * @module
 */
import { PREVIEW_PREFIX } from '../../schema/endpoints.js';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  UnexpectedResponseError,
  type ErrorHeaders,
} from './api-errors.js';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, MAX_UNBUDGETED_RETRY_AFTER_MS, retryDelayMs, serverSaysRetry, type RetryPolicy } from './retry.js';
import { safeMessage } from '../../internal/safe-message.js';
import { untraced } from '../../internal/otel-global.js';
import { unrefTimeout } from '../../internal/timers.js';
import { createHttpClient, HttpTimeoutError, type HttpClient, type HttpResponse } from './http-client.js';

/** Options of {@link Transport}; see `ClientOptions` for their meaning. */
export interface TransportOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** Per-request options. */
export interface RequestOptions {
  /** Aborts the request (and a stream being read). */
  signal?: AbortSignal;
  /** Wait for headers and between body chunks, in ms (min 1). @defaultValue the client's `timeoutMs` */
  timeoutMs?: number;
  /** Retries after a connection error, 408, 409, 429 or 5xx (min 0). @defaultValue the client's `maxRetries` */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Backoff base and cap, and total retry time budget, in ms.
   * @defaultValue `DEFAULT_RETRY_POLICY` (no time budget)
   */
  retry?: Partial<RetryPolicy>;
  /** Called before each retry's wait (e.g. to count retries); must not throw (errors are ignored). */
  onRetry?: (info: RetryInfo) => void;
  /**
   * The wait before a retry does not keep the process alive (for background senders, whose exit
   * handling has its own deadline). @defaultValue false
   */
  unrefRetryWait?: boolean;
}

/** What {@link RequestOptions.onRetry} is told before a retry. */
export interface RetryInfo {
  /** 1-based number of the retry about to be made. */
  attempt: number;
  /** Wait before it, in ms. */
  delayMs: number;
  /** Why the previous attempt failed. */
  error: APIError;
}


/** Sends JSON POSTs to one base URL with the right auth header per path. */
export class Transport {
  readonly baseUrl: string;
  private readonly http: HttpClient;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.http = createHttpClient();
  }

  /** Basic `api:<key>` on core endpoints, Bearer on `/v1/preview/*` (spec "Authentication"). */
  authHeader(path: string): Record<string, string> {
    const key = this.options.apiKey;
    if (!key) return {};
    if (path.startsWith(PREVIEW_PREFIX)) return { authorization: `Bearer ${key}` };
    return { authorization: `Basic ${base64(`api:${key}`)}` };
  }

  /** POSTs `body` as JSON and parses the JSON answer with `schema` (unknown fields tolerated). */
  async post<S extends z.ZodType>(path: string, body: unknown, schema: S, opts: RequestOptions = {}): Promise<z.output<S>> {
    return this.postJson(path, JSON.stringify(body), schema, opts);
  }

  /** POSTs an already serialized JSON body (sent as is, not validated) and parses the answer like {@link post}. */
  async postJson<S extends z.ZodType>(path: string, payload: string | Buffer, schema: S, opts: RequestOptions = {}): Promise<z.output<S>> {
    const { res, value: text } = await this.send(path, payload, 'application/json', opts, (r) => r.text());
    const json = parseJson(text);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new UnexpectedResponseError({ status: res.statusCode, body: json, message: `unexpected response shape from ${path}: ${parsed.error.message}`, headers: res.headers as ErrorHeaders });
    }
    return parsed.data;
  }

  /**
   * POSTs an already serialized JSON body like {@link postJson}, but reads a 2xx answer's body without
   * parsing it (for senders that need only the status, e.g. the exporter's batches).
   */
  async postUnread(path: string, payload: string | Buffer, opts: RequestOptions = {}): Promise<void> {
    await this.send(path, payload, 'application/json', opts, (r) => r.dump());
  }

  /** POSTs `body` and returns the open response body for incremental reading (e.g. JSONL). */
  async stream(path: string, body: unknown, accept: string, opts: RequestOptions = {}): Promise<Readable> {
    const { value } = await this.send(path, JSON.stringify(body), accept, opts, async (r) => r.stream());
    return value;
  }

  /** Closes idle keep-alive sockets. */
  async close(): Promise<void> {
    await this.http.close();
  }

  /**
   * Sends with retries until `maxRetries` or the retry budget is spent; `consume` reads the 2xx
   * answer inside the attempt, so its failures are retried too.
   */
  private async send<T>(path: string, payload: string | Buffer, accept: string, opts: RequestOptions, consume: Consume<T>): Promise<Ok<T>> {
    if (opts.signal?.aborted) throw new APIUserAbortError();
    const maxRetries = opts.maxRetries ?? this.options.maxRetries;
    const policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(path, payload, accept, opts, consume);
      if (outcome.kind === 'ok') return outcome;
      if (attempt >= maxRetries || !outcome.retryable || opts.signal?.aborted) throw outcome.error;
      const delayMs = retryDelayMs(attempt + 1, outcome.headers, policy);
      if (Date.now() + delayMs - startedAt > policy.budgetMs) throw outcome.error;
      if (policy.budgetMs === Infinity && delayMs > MAX_UNBUDGETED_RETRY_AFTER_MS) throw outcome.error;
      notify(opts.onRetry, { attempt: attempt + 1, delayMs, error: outcome.error });
      await sleep(delayMs, opts.signal, opts.unrefRetryWait === true);
    }
  }

  private async attempt<T>(path: string, payload: string | Buffer, accept: string, opts: RequestOptions, consume: Consume<T>): Promise<Attempt<T>> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    let res: HttpResponse;
    try {
      res = await untraced(() => this.http.post(`${this.baseUrl}${path}`, {
        headers: { 'content-type': 'application/json', accept, ...this.authHeader(path), ...opts.headers },
        body: payload,
        signal: opts.signal,
        timeoutMs,
      }));
      if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'ok', res, value: await consume(res) };
    } catch (err) {
      return { kind: 'error', error: connectionError(err, opts.signal), retryable: !opts.signal?.aborted, headers: {} };
    }
    const headers = res.headers as ErrorHeaders;
    const text = await res.text().catch(() => '');
    const error = APIError.generate(res.statusCode, parseJson(text), undefined, headers);
    const retryable = serverSaysRetry(headers) ?? isRetryableStatus(res.statusCode);
    return { kind: 'error', error, retryable, headers };
  }
}

type Consume<T> = (res: HttpResponse) => Promise<T>;
type Ok<T> = { kind: 'ok'; res: HttpResponse; value: T };
type Attempt<T> = Ok<T> | { kind: 'error'; error: APIError; retryable: boolean; headers: ErrorHeaders };

/** Maps a failure without an HTTP answer (or while reading one) to a typed error. */
export function connectionError(err: unknown, signal: AbortSignal | undefined): APIError {
  if (err instanceof APIError) return err;
  if (signal?.aborted) return new APIUserAbortError(undefined, { cause: err });
  const undiciTimeout = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'].includes((err as { code?: string } | null)?.code ?? '');
  if (err instanceof HttpTimeoutError || undiciTimeout) {
    return new APIConnectionTimeoutError(undefined, { cause: err });
  }
  const code = (err as { code?: string } | null)?.code;
  return new APIConnectionError(`Connection error${code ? ` (${code})` : ''}: ${safeMessage(err)}`, { cause: err });
}

function notify(onRetry: RequestOptions['onRetry'], info: RetryInfo): void {
  try {
    onRetry?.(info);
  } catch {
    // a counting hook must not change the request's outcome
  }
}

/** Base64 of the UTF-8 bytes of `text` (`btoa` alone takes only Latin-1), on every runtime. */
function base64(text: string): string {
  return btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''));
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined, unref: boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = unref ? unrefTimeout(done, ms) : setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
