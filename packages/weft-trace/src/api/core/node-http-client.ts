/**
 * The transport's HTTP on Node.js: `node:http` / `node:https` with a keep-alive Agent. Node.js ships these in its
 * startup snapshot, so a process pays ~6 ms to load them where the `undici` package costs ~130-165 ms of wall time
 * and ~170-200 ms of CPU (measured on the 2-core machine, Node 20): the SDK's first request (for a short script, the
 * one made at exit) no longer waits for a module load. The modules come through `internal/runtime.ts`
 * (`process.getBuiltinModule`), so loading the SDK never imports a `node:` module on a runtime that uses `fetch`.
 * @module
 */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { nodeBuiltin, utf8Length } from '../../internal/runtime.js';
import { HttpTimeoutError, type HttpClient, type HttpRequest, type HttpResponse } from './http-client-types.js';

/** What the client uses of `node:http` and `node:https` (the same shape for both). */
type HttpModule = Pick<typeof import('node:http'), 'request' | 'Agent'>;

/**
 * Keep-alive pools of at most {@link MAX_SOCKETS} sockets per origin (as the undici Agent before it); idle sockets are
 * unref'd (they never keep the process alive) and closed after {@link IDLE_MS}, under the 5 s keep-alive of Node.js
 * servers (`weft serve` among them), so a reused socket is not one the server is closing.
 */
const MAX_SOCKETS = 16;
const IDLE_MS = 4_000;

export class NodeHttpClient implements HttpClient {
  private readonly agents = new Map<string, { mod: HttpModule; agent: Agent }>();

  post(url: string, req: HttpRequest): Promise<HttpResponse> {
    const target = new URL(url);
    const { mod, agent } = this.pool(target.protocol);
    const body = req.body;
    const headers = { ...req.headers, 'content-length': String(typeof body === 'string' ? utf8Length(body) : body.byteLength) };
    const options: RequestOptions = { method: 'POST', agent, headers, signal: req.signal };
    return new Promise((resolve, reject) => {
      let request: ClientRequest;
      try {
        request = mod.request(target, options);
      } catch (err) {
        reject(err);
        return;
      }
      // no answer (headers) within timeoutMs: undici's headersTimeout
      const timer = setTimeout(() => request.destroy(new HttpTimeoutError(`no answer within ${req.timeoutMs} ms`)), req.timeoutMs);
      // an error after the answer came (a socket reset mid-body) reaches the body's reader; this one only settles the wait
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.once('socket', guardSocket);
      request.once('response', (res: IncomingMessage) => {
        clearTimeout(timer);
        // an answer that came before the body was all written (a 413 at once): the socket is not reused
        if (!request.writableFinished) res.once('end', () => request.destroy());
        // no body chunk within timeoutMs: undici's bodyTimeout
        res.setTimeout(req.timeoutMs, () => res.destroy(new HttpTimeoutError(`no body data within ${req.timeoutMs} ms`)));
        res.on('error', () => undefined); // an unread body's error must not crash the process; readers see it
        resolve(answer(res));
      });
      request.end(body);
    });
  }

  close(): Promise<void> {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
    return Promise.resolve();
  }

  private pool(protocol: string): { mod: HttpModule; agent: Agent } {
    let pool = this.agents.get(protocol);
    if (!pool) {
      const mod = (protocol === 'https:' ? nodeBuiltin('node:https') : nodeBuiltin('node:http')) as HttpModule;
      pool = { mod, agent: new mod.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, scheduling: 'lifo', timeout: IDLE_MS }) };
      this.agents.set(protocol, pool);
    }
    return pool;
  }
}

const guarded = new WeakSet<Socket>();
/**
 * A socket of ours never throws an `error` event into the process: when a server answers before reading the whole
 * body (a 413 at once) and closes, the rest of the write fails (EPIPE, ECONNRESET) after the request let go of the
 * socket. The request and the answer's reader still see their own errors.
 */
function guardSocket(socket: Socket): void {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  socket.on('error', () => undefined);
}

/** The answer's status, headers and its body, read once. */
function answer(res: IncomingMessage): HttpResponse {
  return {
    statusCode: res.statusCode ?? 0,
    headers: res.headers,
    text: async () => {
      const chunks = await read(res, true);
      return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    },
    dump: async () => void (await read(res, false)),
    stream: () => res as Readable,
  };
}

/** Reads the body to its end (keeping the chunks or not); rejects when it ends early, times out or is aborted. */
async function read(res: IncomingMessage, keep: boolean): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) if (keep) chunks.push(chunk as Buffer);
  if (!res.complete) throw new Error('the connection closed before the answer ended');
  return chunks;
}
