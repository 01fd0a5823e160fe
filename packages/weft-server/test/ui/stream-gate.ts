/**
 * Test helper: a loopback proxy in front of a real weft server that holds back `/calls/stream_query` answers on
 * demand (the first lines passed, the rest held until released; or held whole; or answered with an error), so a
 * browser test sees what a page draws while it waits. Every other request, and every query no rule matches, passes.
 * @module
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What to do with a stream query whose body `match` accepts. */
export interface GateRule {
  match: (body: Record<string, unknown>) => boolean;
  /** Lines of the answer passed before holding the rest (0: not even the status line is sent). @defaultValue 0 */
  passLines?: number;
  /** Answer this status (with a `{detail}` body) instead of forwarding. */
  status?: number;
}

export interface StreamGate {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The bodies of the stream queries seen, in arrival order. */
  readonly queries: Record<string, unknown>[];
  /** Holds the queries `rule` matches until `release()` (one rule at a time; replaces the last). */
  hold(rule: GateRule): void;
  /** Lets every held answer go on, and ends the rule. */
  release(): void;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 (a free port) in front of `upstream`. */
export async function startStreamGate(upstream: string): Promise<StreamGate> {
  const target = new URL(upstream);
  const queries: Record<string, unknown>[] = [];
  let rule: GateRule | undefined;
  let released: () => void = () => {};
  let gate = Promise.resolve();

  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, held?: { lines: number; until: Promise<void> }): void => {
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      const send = (): void => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        if (!held) {
          upRes.pipe(res);
          return;
        }
        let lines = 0;
        let holding = false;
        upRes.on('data', (chunk: Buffer) => {
          if (holding) return void res.write(chunk);
          let cut = -1;
          for (let i = 0; i < chunk.length && lines < held.lines; i++) if (chunk[i] === 10 && ++lines === held.lines) cut = i + 1;
          if (lines < held.lines) return void res.write(chunk);
          // the first lines go now; the rest of the answer waits for the release
          holding = true;
          res.write(chunk.subarray(0, cut === -1 ? 0 : cut));
          upRes.pause();
          void held.until.then(() => {
            res.write(chunk.subarray(cut === -1 ? 0 : cut));
            upRes.resume();
          });
        });
        upRes.on('end', () => res.end());
      };
      if (held && held.lines === 0) void held.until.then(send);
      else send();
    });
    up.on('error', () => res.destroy());
    up.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url !== '/calls/stream_query') return forward(req, body, res);
      const parsed = JSON.parse(body.toString()) as Record<string, unknown>;
      queries.push(parsed);
      const r = rule && rule.match(parsed) ? rule : undefined;
      if (!r) return forward(req, body, res);
      if (r.status !== undefined) {
        res.writeHead(r.status, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ detail: 'held back by the test proxy' }));
      }
      forward(req, body, res, { lines: r.passLines ?? 0, until: gate });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    hold(next) {
      rule = next;
      gate = new Promise((resolve) => { released = resolve; });
    },
    release() {
      rule = undefined;
      released();
    },
    close: () => new Promise((resolve) => {
      released();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
