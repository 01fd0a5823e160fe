/**
 * What the transport asks of an HTTP client (`http-client.ts` picks one per runtime): one POST, its answer read once.
 * @module
 */
import type { Readable } from 'node:stream';

/** One answer, read once: as text, discarded, or as a stream of byte chunks. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text(): Promise<string>;
  dump(): Promise<void>;
  /** The body as chunks (`for await`), with `destroy()` to stop reading. */
  stream(): Readable;
}

/** What a request carries; `timeoutMs` bounds the wait for the headers and between body chunks. */
export interface HttpRequest {
  headers: Record<string, string>;
  body: string | Uint8Array;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** A keep-alive connection pool (undici) or the runtime's `fetch`. */
export interface HttpClient {
  post(url: string, req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** Raised when the headers or a body chunk did not come within `timeoutMs` (mapped to `APIConnectionTimeoutError`). */
export class HttpTimeoutError extends Error {
  override readonly name = 'HttpTimeoutError';
}
