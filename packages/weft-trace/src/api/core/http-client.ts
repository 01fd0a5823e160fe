/**
 * The one HTTP request the transport makes, per runtime: on Node.js, `node:http` with a keep-alive Agent
 * (`node-http-client.ts`: no module to load at the first request); on Deno, undici when the app installed it (an optional
 * peer of weft-trace; keep-alive pool, header and
 * body timeouts), imported lazily when the first transport is made; elsewhere the runtime's global `fetch` (Bun
 * ships its own partial `undici`; Cloudflare Workers and Vercel Edge have no sockets for it), also where undici fails
 * to load. Loading the SDK never reaches undici nor a `node:` import on a runtime that uses `fetch`.
 * @module
 */
import type { Readable } from 'node:stream';
import { HttpTimeoutError, type HttpClient, type HttpRequest, type HttpResponse } from './http-client-types.js';
import { nodeBuiltin } from '../../internal/runtime.js';
import { NodeHttpClient } from './node-http-client.js';

export { HttpTimeoutError, type HttpClient, type HttpRequest, type HttpResponse };

/** Whether the runtime is one where undici works (Deno, and Node.js): not Bun, Cloudflare Workers or Vercel Edge. */
export function undiciUsable(): boolean {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; Bun?: unknown; EdgeRuntime?: unknown; navigator?: { userAgent?: string } };
  if (g.Bun !== undefined || g.EdgeRuntime !== undefined || g.navigator?.userAgent === 'Cloudflare-Workers') return false;
  return typeof g.process?.versions?.node === 'string';
}

/** The client for this runtime: `node:http` on Node.js, undici on Deno (falling back to `fetch` if it fails to load), else `fetch`. */
export function createHttpClient(): HttpClient {
  if (!undiciUsable()) return new FetchClient();
  // of the runtimes undici works on, Node.js (node:http from process.getBuiltinModule) and Deno
  return !('Deno' in globalThis) && nodeBuiltin('node:http') !== undefined ? new NodeHttpClient() : new UndiciClient();
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
