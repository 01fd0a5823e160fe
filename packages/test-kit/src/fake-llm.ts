/**
 * Test helper: a loopback node:http server answering as the OpenAI and Anthropic APIs do (JSON, SSE streams, errors, generated images and speech), for the real SDKs via `baseURL`.
 * @module
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { anthropicMessage, anthropicStreamEvents } from './fake-llm-anthropic.js';
import { calcCompletion, offersCalculator } from './fake-llm-calc.js';
import { chatChunks, chatCompletion, embeddings, FAKE_IMAGE, FAKE_SPEECH, responseEvents, responseObject, type Scenario } from './fake-llm-openai.js';

/** A running fake provider. `openaiURL` / `anthropicURL` go to the SDKs' `baseURL`. */
export interface FakeLlm {
  url: string;
  openaiURL: string;
  anthropicURL: string;
  /** Request bodies received, newest last. */
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

/**
 * What a request asks for, read from its `model`: `fail-400`, `fail-429` (with `Retry-After: 7`),
 * `fail-500`, `cut` (the stream stops mid-way: the socket is destroyed), `refuse` (a refusal), `tool`
 * (a tool call unless the conversation already has a tool result; also when the request offers `tools`; a
 * `calculator` tool gets the calculator agent of `fake-llm-calc.ts`); header `x-fake-chunks` sets the
 * number of content chunks of a stream (default 5).
 */
function scenarioOf(req: IncomingMessage, body: Record<string, unknown>): Scenario {
  const model = String(body['model'] ?? '');
  const chunks = Number(req.headers['x-fake-chunks'] ?? 5);
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Record<string, unknown>[]) : [];
  const hadToolResult = messages.some(
    (m) => m['role'] === 'tool' || (Array.isArray(m['content']) && (m['content'] as Record<string, unknown>[]).some((b) => b['type'] === 'tool_result')),
  );
  const wantsTool = model.includes('tool') || (Array.isArray(body['tools']) && body['tools'].length > 0);
  const kind = model.includes('refuse') ? 'refusal' : wantsTool && !hadToolResult ? 'tool' : 'text';
  const audio = Array.isArray(body['modalities']) && body['modalities'].includes('audio');
  return { model, chunks, kind, cut: model.includes('cut'), includeUsage: (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true, logprobs: body['logprobs'] === true, audio };
}

function sendError(res: ServerResponse, status: number, anthropic: boolean): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'req_err', 'request-id': 'req_err' };
  if (status === 429) headers['retry-after'] = '7';
  res.writeHead(status, headers);
  const message = status === 400 ? 'Invalid value for messages' : status === 429 ? 'Rate limit reached' : 'The server had an error';
  const body = anthropic
    ? { type: 'error', error: { type: status === 400 ? 'invalid_request_error' : status === 429 ? 'rate_limit_error' : 'api_error', message } }
    : { error: { message, type: status === 400 ? 'invalid_request_error' : status === 429 ? 'requests' : 'server_error', param: null, code: status === 400 ? 'invalid_value' : null } };
  res.end(JSON.stringify(body));
}

/** Writes SSE events (`event:` line when named), then `[DONE]` for OpenAI chat; a cut stream stops halfway. */
export function sendStream(res: ServerResponse, events: { event?: string; data: unknown }[], done: boolean, cut: boolean, requestId: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': requestId, 'request-id': requestId });
  const upTo = cut ? Math.floor(events.length / 2) : events.length;
  let text = '';
  for (let i = 0; i < upTo; i++) {
    const e = events[i]!;
    text += `${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`;
  }
  if (cut) {
    res.write(text, () => setTimeout(() => res.socket?.destroy(), 5));
    return;
  }
  if (done) text += 'data: [DONE]\n\n';
  res.end(text);
}

function sendJson(res: ServerResponse, body: unknown, requestId: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId, 'request-id': requestId });
  res.end(JSON.stringify(body));
}

let seq = 0;

function answer(req: IncomingMessage, res: ServerResponse, path: string, body: Record<string, unknown>): void {
  const s = scenarioOf(req, body);
  const anthropic = path.endsWith('/messages');
  const fail = /fail-(\d{3})/.exec(s.model);
  if (fail) return sendError(res, Number(fail[1]), anthropic);
  const requestId = `req_${++seq}`;
  const stream = body['stream'] === true;
  if (path.endsWith('/chat/completions')) {
    if (!stream && offersCalculator(body)) return sendJson(res, calcCompletion(body, seq), requestId);
    return stream ? sendStream(res, chatChunks(s).map((data) => ({ data })), true, s.cut, requestId) : sendJson(res, chatCompletion(s), requestId);
  }
  if (path.endsWith('/responses')) return stream ? sendStream(res, responseEvents(s), false, s.cut, requestId) : sendJson(res, responseObject(s), requestId);
  if (path.endsWith('/embeddings')) return sendJson(res, embeddings(body), requestId);
  if (path.endsWith('/images/generations')) {
    const n = typeof body['n'] === 'number' ? body['n'] : 1;
    return sendJson(res, { created: 1_700_000_000, data: Array.from({ length: n }, () => ({ b64_json: FAKE_IMAGE.toString('base64') })) }, requestId);
  }
  if (path.endsWith('/audio/speech')) {
    res.writeHead(200, { 'content-type': 'audio/wav', 'x-request-id': requestId });
    return void res.end(FAKE_SPEECH);
  }
  if (anthropic) return stream ? sendStream(res, anthropicStreamEvents(s), false, s.cut, requestId) : sendJson(res, anthropicMessage(s), requestId);
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
}

/** A request listener that reads the JSON body, then calls `handle` with the path, the query and the body (`undefined` when not JSON). */
export function onJsonRequest(handle: (req: IncomingMessage, res: ServerResponse, path: string, query: string, body: Record<string, unknown> | undefined) => void): RequestListener {
  return (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const [path = '', query = ''] = (req.url ?? '').split('?');
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      handle(req, res, path, query, body);
    });
  };
}

/** Listens with `listener` on 127.0.0.1, port 0; `close()` ends the open connections too. */
export async function listenLoopback(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the fake provider on 127.0.0.1, port 0. */
export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  const { url, close } = await listenLoopback(
    onJsonRequest((req, res, path, _query, body) => {
      if (body === undefined) return sendError(res, 400, path.endsWith('/messages'));
      requests.push({ path, body });
      answer(req, res, path, body);
    }),
  );
  return { url, openaiURL: `${url}/v1`, anthropicURL: url, requests, close };
}

/** Runs `start()` in `beforeAll` and closes what it started in `afterAll`; returns a getter, which throws outside a test. */
export function useStarted<T extends { close(): unknown }>(name: string, start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  return () => {
    if (!started) throw new Error(`${name}: it starts in beforeAll; read it inside a test`);
    return started;
  };
}

/** Starts the fake provider in `beforeAll` and closes it in `afterAll`; returns a getter. */
export function useFakeLlm(): () => FakeLlm {
  return useStarted('useFakeLlm()', startFakeLlm);
}

/** Reads an async iterable to the end. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const c of it) out.push(c);
  return out;
}
