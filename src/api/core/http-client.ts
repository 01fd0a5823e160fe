/**
 * The one HTTP request the transport makes, on every runtime: undici (keep-alive pool, header and body timeouts)
 * on Node.js and Deno; the runtime's global `fetch` where undici cannot load or is a stub (Bun ships its own partial
 * `undici`; Cloudflare Workers and Vercel Edge have no sockets for it). undici is imported lazily (an `import()`
 * when the first transport is made, on those two runtimes only), so loading the SDK never reaches it (nor its `node:` imports)
 * on a runtime that uses `fetch`.
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

/** Whether the runtime is one where undici works (Node.js, Deno): not Bun, Cloudflare Workers or Vercel Edge. */
export function undiciUsable(): boolean {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; Bun?: unknown; EdgeRuntime?: unknown; navigator?: { userAgent?: string } };
  if (g.Bun !== undefined || g.EdgeRuntime !== undefined || g.navigator?.userAgent === 'Cloudflare-Workers') return false;
  return typeof g.process?.versions?.node === 'string';
}

/** The client for this runtime: undici where usable (falling back to `fetch` if it fails to load), else `fetch`. */
export function createHttpClient(): HttpClient {
  return undiciUsable() ? new UndiciClient() : new FetchClient();
}

type Undici = typeof import('undici');

/** undici with keep-alive: the Agent is made at the first request. */
class UndiciClient implements HttpClient {
  private loaded: Promise<{ undici: Undici; agent: InstanceType<Undici['Agent']> } | undefined> | undefined;
  private fallback: FetchClient | undefined;

  constructor() {
    void this.load(); // loading starts with the client, so the first request does not wait for it
  }

  private load() {
    this.loaded ??= import('undici').then(
      (undici) => ({ undici, agent: new undici.Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 }) }),
      () => undefined,
    );
    return this.loaded;
  }

  async post(url: string, req: HttpRequest): Promise<HttpResponse> {
    const loaded = await this.load();
    if (!loaded) return (this.fallback ??= new FetchClient()).post(url, req);
    const { undici, agent } = loaded;
    try {
      const res = await undici.request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      return {
        statusCode: res.statusCode,
        headers: res.headers,
        text: () => res.body.text().catch(rethrow(undici)),
        dump: () => res.body.dump().catch(rethrow(undici)),
        stream: () => res.body as unknown as Readable,
      };
    } catch (err) {
      throw rethrow(undici)(err);
    }
  }

  async close(): Promise<void> {
    const loaded = await this.loaded;
    await loaded?.agent.close();
  }
}

/** undici's header and body timeouts as {@link HttpTimeoutError}; anything else unchanged. */
function rethrow(undici: Undici): (err: unknown) => never {
  return (err) => {
    if (err instanceof undici.errors.HeadersTimeoutError || err instanceof undici.errors.BodyTimeoutError) {
      throw new HttpTimeoutError(err.message, { cause: err });
    }
    throw err;
  };
}

/** The runtime's `fetch`: the header timeout is a timer that aborts the request. */
class FetchClient implements HttpClient {
  async post(url: string, req: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    try {
      const res = await fetch(url, { method: 'POST', headers: req.headers, body: req.body as BodyInit, signal: controller.signal });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, key) => (headers[key] = value));
      return { statusCode: res.status, headers, text: () => res.text(), dump: () => res.arrayBuffer().then(() => undefined), stream: () => webStream(res.body) };
    } catch (err) {
      if (timedOut) throw new HttpTimeoutError(`no answer within ${req.timeoutMs} ms`, { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {}
}

/** A fetch body as the chunk iterable the JSONL reader takes (`for await`, `destroy()`). */
function webStream(body: ReadableStream<Uint8Array> | null): Readable {
  const reader = body?.getReader();
  const iterable = {
    async *[Symbol.asyncIterator]() {
      if (!reader) return;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
    destroy() {
      reader?.cancel().catch(() => {});
    },
  };
  return iterable as unknown as Readable;
}
