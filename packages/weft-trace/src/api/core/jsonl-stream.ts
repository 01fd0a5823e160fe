/**
 * A single-use async iterable over a JSONL response, parsed incrementally; `break` aborts the request.
 * @module
 */
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { WeftError } from '../../errors.js';
import { APIError, APIUserAbortError, UnexpectedResponseError } from './api-errors.js';
import { jsonlLines } from './jsonl-lines.js';
import { connectionError } from './transport.js';

/** Opens the HTTP response; receives the signal that aborts it. */
export type StreamOpener = (signal: AbortSignal) => Promise<Readable>;

/**
 * Records of a JSONL stream. Iterate it once with `for await`; leaving the loop early
 * (`break`, `return`, a throw) aborts the request. A line holding `{"detail": ...}` or
 * `{"error": ...}` instead of a record is raised as an {@link APIError}; a line that is not JSON, or
 * not a record, as an {@link UnexpectedResponseError}.
 */
export class JsonlStream<S extends z.ZodType> implements AsyncIterable<z.output<S>> {
  private used = false;

  constructor(
    private readonly open: StreamOpener,
    private readonly schema: S,
    private readonly userSignal?: AbortSignal,
  ) {}

  /** Reads every record into an array (the whole answer is held in memory). */
  async toArray(): Promise<z.output<S>[]> {
    const out: z.output<S>[] = [];
    for await (const rec of this) out.push(rec);
    return out;
  }

  [Symbol.asyncIterator](): AsyncIterator<z.output<S>> {
    if (this.used) throw new WeftError('This stream has already been consumed; call the query again to read it anew.');
    this.used = true;
    return this.records();
  }

  private async *records(): AsyncGenerator<z.output<S>> {
    if (this.userSignal?.aborted) throw new APIUserAbortError();
    const controller = new AbortController();
    const onAbort = () => controller.abort(this.userSignal?.reason);
    this.userSignal?.addEventListener('abort', onAbort, { once: true });
    let body: Readable | undefined;
    let finished = false;
    try {
      body = await this.open(controller.signal);
      for await (const line of jsonlLines(readTyped(body, this.userSignal))) if (line.trim()) yield this.parse(line);
      finished = true;
    } finally {
      this.userSignal?.removeEventListener('abort', onAbort);
      if (!finished) {
        controller.abort();
        body?.destroy();
      }
    }
  }

  private parse(line: string): z.output<S> {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new UnexpectedResponseError({ body: line, message: `could not parse a JSONL line: ${(err as Error).message}`, cause: err });
    }
    if (json && typeof json === 'object' && ('detail' in json || 'error' in json) && !('id' in json)) {
      throw new APIError({ body: json, message: 'error frame in stream' });
    }
    const parsed = this.schema.safeParse(json);
    if (!parsed.success) throw new UnexpectedResponseError({ body: json, message: `unexpected record shape: ${parsed.error.message}` });
    return parsed.data;
  }
}

/** The chunks of `body`; a failure while reading (timeout, reset, abort) is raised as a typed error. */
async function* readTyped(body: Readable, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array | string> {
  try {
    for await (const chunk of body) yield chunk as Uint8Array | string;
  } catch (err) {
    throw connectionError(err, signal);
  }
}
