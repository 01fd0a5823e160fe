/**
 * Test helper: a real HTTP server on loopback that records each request and answers a fixed JSON body,
 * for checking what the typed client sends and how it parses odd answers.
 * @module
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the canned server received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running canned server. */
export interface CannedServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server answering every request with `status` and `body` (JSON-encoded).
 * @returns its URL, the requests seen so far, and `close()`.
 */
export async function startCannedServer(body: unknown, status = 200): Promise<CannedServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
