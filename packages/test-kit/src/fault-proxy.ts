/**
 * Test helper: a real HTTP proxy on loopback in front of a real server, that injects faults on demand
 * (refused connections, error statuses with Retry-After, resets, latency, answers lost after the body was stored).
 * @module
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fault applied to requests while it is active. */
export type Fault =
  /** The listener is closed (and open connections dropped): connections are refused. */
  | { kind: 'refuse' }
  /** Answer `status` without forwarding, with `Retry-After: retryAfter` when given. */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Destroy the connection after the request head arrived, before forwarding anything. */
  | { kind: 'reset' }
  /** Forward the request `ms` later. */
  | { kind: 'delay'; ms: number }
  /** Forward the request, wait for the server's full answer (the body was accepted), then drop the connection. */
  | { kind: 'drop-after-upstream' };

/** A running fault proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`, stable across `refuse` windows. */
  readonly url: string;
  /** Requests seen, and how many of them a fault hit. */
  readonly counts: { requests: number; faulted: number; forwarded: number };
  /**
   * Applies `fault` to a share `ratio` (0..1, spread evenly; default 1) of requests, for `forMs` ms
   * (default: until `clear()`), only to requests to `path` when given (e.g. `/file/create`). A `refuse` needs
   * `forMs`. Replaces the active fault.
   */
  inject(fault: Fault, opts?: { forMs?: number; ratio?: number; path?: string }): void;
  /** Ends the active fault. */
  clear(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (free port) forwarding to `upstream` (e.g. a test server's url). */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const counts = { requests: 0, faulted: 0, forwarded: 0 };
  let active: { fault: Fault; ratio: number; seen: number; path: string | undefined } | undefined;
  let timer: NodeJS.Timeout | undefined;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, dropAnswer: boolean) => {
    counts.forwarded++;
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (upRes) => {
        if (dropAnswer) {
          upRes.resume();
          upRes.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  };

  /** Whether the active fault hits this request (evenly spread by `ratio`). */
  const hits = (path: string | undefined): Fault | undefined => {
    if (!active || (active.path !== undefined && active.path !== path)) return undefined;
    const n = active.seen++;
    return Math.floor((n + 1) * active.ratio) > Math.floor(n * active.ratio) ? active.fault : undefined;
  };

  const server = http.createServer((req, res) => {
    counts.requests++;
    const fault = hits(req.url);
    if (fault) counts.faulted++;
    if (!fault || fault.kind === 'refuse') return forward(req, res, false);
    if (fault.kind === 'reset') return req.socket.destroy();
    if (fault.kind === 'drop-after-upstream') return forward(req, res, true);
    if (fault.kind === 'delay') {
      req.pause();
      setTimeout(() => {
        req.resume();
        forward(req, res, false);
      }, fault.ms);
      return;
    }
    req.resume();
    req.on('end', () => {
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      res.writeHead(fault.status, headers).end(JSON.stringify({ detail: `injected ${fault.status}` }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  const listen = () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const wasRefusing = active?.fault.kind === 'refuse';
    active = undefined;
    if (wasRefusing) void listen();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    inject(fault, opts = {}) {
      clear();
      active = { fault, ratio: opts.ratio ?? 1, seen: 0, path: opts.path };
      if (fault.kind === 'refuse') {
        if (opts.forMs === undefined) throw new Error('a refuse fault needs forMs');
        server.close();
        server.closeAllConnections();
      }
      if (opts.forMs !== undefined) timer = setTimeout(clear, opts.forMs);
    },
    clear,
    async close() {
      if (timer) clearTimeout(timer);
      active = undefined;
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
}
