/**
 * Test helper: a loopback node:http server answering as the Amazon Bedrock Runtime API does (Converse, ConverseStream,
 * InvokeModel, InvokeModelWithResponseStream; the streams in the AWS event-stream binary framing, encoded with
 * `@smithy/eventstream-codec`), for the real `@aws-sdk/client-bedrock-runtime` via `endpoint`. It speaks HTTP/2 over
 * cleartext (h2c), as the client's default request handler (`NodeHttp2Handler`) does. It ignores the SigV4 signature but
 * records the `authorization` header.
 * @module
 */
import type { RequestListener, ServerResponse } from 'node:http';
import { createServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { converseEvents, converseResponse, invokeBody, invokeChunks, wantsTool } from './fake-bedrock-bodies.js';
import { onJsonRequest } from './fake-llm.js';

type Obj = Record<string, unknown>;

/** A running fake: `url` for the client's `endpoint`; `requests` what it received, newest last. */
export interface FakeBedrock {
  url: string;
  requests: { path: string; modelId: string; authorization: string | undefined; body: Obj | undefined }[];
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One event-stream message: an `event` of type `name` whose payload is `payload` as JSON. */
function frame(name: string, payload: Obj): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: name },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** Writes the frames one by one (each its own write, so the client reads them as they come). */
function sendFrames(res: ServerResponse, requestId: string, frames: Uint8Array[]): void {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': requestId });
  for (const f of frames) res.write(f);
  res.end();
}

function sendJson(res: ServerResponse, requestId: string, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': requestId, ...extra });
  res.end(JSON.stringify(body));
}

/** A Bedrock error answer: status, `x-amzn-errortype` and `{message}`, as the service sends them. */
function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'req-error' });
  res.end(JSON.stringify({ message }));
}

/** Listens with `listener` (the HTTP/2 compatibility API: the same request and response calls) on 127.0.0.1, port 0; `close()` ends the open sessions too. */
async function listenH2c(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener as unknown as Parameters<typeof createServer>[0]);
  const sessions = new Set<Http2Session>();
  server.on('session', (s: Http2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Starts the fake on 127.0.0.1, port 0. A model id containing `fail` gets a 400 `ValidationException`. */
export async function startFakeBedrock(): Promise<FakeBedrock> {
  const requests: FakeBedrock['requests'] = [];
  let seq = 0;
  const { url, close } = await listenH2c(
    onJsonRequest((req, res, path, _query, body) => {
      const m = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/.exec(path);
      if (!m) return sendError(res, 404, 'UnknownOperationException', `no route ${path}`);
      const modelId = decodeURIComponent(m[1]!);
      requests.push({ path, modelId, authorization: req.headers['authorization'], body });
      if (modelId.includes('fail')) return sendError(res, 400, 'ValidationException', 'The provided model identifier is invalid.');
      const requestId = `req-${++seq}`;
      switch (m[2]) {
        case 'converse':
          return sendJson(res, requestId, converseResponse(wantsTool(body ?? {})));
        case 'converse-stream':
          return sendFrames(res, requestId, converseEvents(wantsTool(body ?? {})).map((e) => frame(e.name, e.payload)));
        case 'invoke':
          return sendJson(res, requestId, invokeBody(modelId));
        default:
          return sendFrames(res, requestId, invokeChunks(modelId).map((c) => frame('chunk', { bytes: Buffer.from(JSON.stringify(c)).toString('base64') })));
      }
    }),
  );
  return { url, requests, close };
}
