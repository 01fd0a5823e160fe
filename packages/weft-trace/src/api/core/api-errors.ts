/**
 * Typed errors of the weft client's HTTP answers: one status → class factory under the root `WeftError`.
 * @module
 */
import type { ValidationErrorItem } from '../../schema/validation-error.js';
import { WeftError } from '../../errors.js';


/** Headers of a failed response, lower-cased names. */
export type ErrorHeaders = Record<string, string | string[] | undefined>;

/** What an {@link APIError} is made of; every field may be left out. */
export interface APIErrorInit {
  /** HTTP status code; leave out when no response arrived. */
  status?: number | undefined;
  /** Parsed response body (JSON when possible, else the raw text). */
  body?: unknown;
  /** What failed, used when the body holds no `detail`. */
  message?: string | undefined;
  /** Response headers, lower-case names. @defaultValue `{}` */
  headers?: ErrorHeaders;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** An HTTP answer with a non-2xx status. `body` is the parsed JSON body when there was one. */
export class APIError extends WeftError {
  override name = 'APIError';
  /** HTTP status code, or `undefined` when no response arrived. */
  readonly status: number | undefined;
  /** Response headers (lower-case names). */
  readonly headers: ErrorHeaders;
  /** Parsed response body (JSON when possible, else the raw text). */
  readonly body: unknown;
  /** The `x-request-id` header of the response, when present. */
  readonly requestId: string | undefined;

  constructor({ status, body, message, headers = {}, cause }: APIErrorInit = {}) {
    super(APIError.makeMessage(status, body, message), cause === undefined ? undefined : { cause });
    this.status = status;
    this.body = body;
    this.headers = headers;
    const rid = headers['x-request-id'];
    this.requestId = Array.isArray(rid) ? rid[0] : rid;
  }

  private static makeMessage(status: number | undefined, body: unknown, message: string | undefined): string {
    const detail = detailText(body);
    if (status === undefined) return [message, detail].filter(Boolean).join(': ') || 'request failed';
    const head = `${status}`;
    if (detail) return `${head} ${detail}`;
    return message ? `${head} ${message}` : `${head} status code (no body)`;
  }

  /** Maps a status to its error class (400, 401, 403, 404, 409, 413, 422, 429, 5xx). */
  static generate(status: number, body: unknown, message: string | undefined, headers: ErrorHeaders): APIError {
    const Cls = STATUS_CLASSES[status] ?? (status >= 500 ? InternalServerError : APIError);
    return new Cls({ status, body, message, headers });
  }
}

/** Summarises a `{detail}` body into one line. */
function detailText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return typeof body === 'string' && body ? body : undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d: Partial<ValidationErrorItem>) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`)
      .join('; ');
  }
  return JSON.stringify(detail);
}

/** HTTP 400. */
export class BadRequestError extends APIError { override name = 'BadRequestError'; }
/** HTTP 401: missing or bad credentials. */
export class AuthenticationError extends APIError { override name = 'AuthenticationError'; }
/** HTTP 403. */
export class PermissionDeniedError extends APIError { override name = 'PermissionDeniedError'; }
/** HTTP 404. */
export class NotFoundError extends APIError { override name = 'NotFoundError'; }
/** HTTP 409. */
export class ConflictError extends APIError { override name = 'ConflictError'; }
/** HTTP 413: the request body is over the server's limit. */
export class PayloadTooLargeError extends APIError { override name = 'PayloadTooLargeError'; }
/** HTTP 429. */
export class RateLimitError extends APIError { override name = 'RateLimitError'; }
/** HTTP 5xx. */
export class InternalServerError extends APIError { override name = 'InternalServerError'; }

/** HTTP 422: the server rejected the request body; `detail` lists each problem. */
export class ValidationError extends APIError {
  override name = 'ValidationError';
  /** `[{loc, msg, type}]` from the server's body (empty when the body had none). */
  get detail(): ValidationErrorItem[] {
    const body = this.body as { detail?: unknown } | undefined;
    return Array.isArray(body?.detail) ? (body.detail as ValidationErrorItem[]) : [];
  }
}

/**
 * A 2xx answer that is not what the endpoint answers: not JSON, or JSON of another shape (the message
 * holds zod's issues). Usually the base URL points at something that is not a weft service.
 */
export class UnexpectedResponseError extends APIError { override name = 'UnexpectedResponseError'; }

/** No HTTP answer: refused, reset, DNS failure, ... The original error is the `cause`. */
export class APIConnectionError extends APIError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: ErrorOptions) {
    super({ message, cause: options?.cause });
  }
}

/** No answer within the request timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: ErrorOptions) {
    super(message, options);
  }
}

/** The caller aborted the request through its `AbortSignal`. */
export class APIUserAbortError extends APIError {
  override name = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: ErrorOptions) {
    super({ message, cause: options?.cause });
  }
}

const STATUS_CLASSES: Record<number, new (init: APIErrorInit) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: ValidationError,
  429: RateLimitError,
};

