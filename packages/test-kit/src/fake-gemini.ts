/**
 * Test helper: a loopback node:http server answering as the Gemini API does (`:generateContent` JSON, `:streamGenerateContent?alt=sse`, `:batchEmbedContents`, errors), for the real `@google/genai` via `httpOptions.baseUrl`.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { listenLoopback, onJsonRequest, useStarted } from './fake-llm.js';

type Obj = Record<string, unknown>;

/** A running fake Gemini API: `url` goes to `new GoogleGenAI({ httpOptions: { baseUrl: url } })`. */
export interface FakeGemini {
  url: string;
  /** Requests received, newest last: the path (`/v1/models/gemini-2.5-flash:generateContent`), the query and the JSON body. */
  requests: { path: string; query: string; body: Obj }[];
  close(): Promise<void>;
}

/** The text a reply is made of, in stream chunks (`chunks` of it, 4 by default). */
export const REPLY = ['The sky ', 'is blue ', 'because of ', 'Rayleigh scattering.'];
/** The thought the model shares when asked to (`generationConfig.thinkingConfig.includeThoughts`). */
export const THOUGHT = 'Short wavelengths scatter more.';

/**
 * The usage a generateContent request reports: 1200 prompt tokens (200 of them from the cache), 40 candidate tokens and
 * 30 thinking tokens (the API counts thoughts apart from the candidates; the total is their sum).
 */
export const USAGE_METADATA = {
  promptTokenCount: 1200,
  cachedContentTokenCount: 200,
  candidatesTokenCount: 40,
  thoughtsTokenCount: 30,
  totalTokenCount: 1270,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1200 }],
  cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 200 }],
};

/** The model version the API answers for a request's model (`models/x` → `x`). */
const versionOf = (model: string): string => model.replace(/^models\//, '');

function lastUserText(body: Obj): string {
  const contents = Array.isArray(body['contents']) ? (body['contents'] as Obj[]) : [];
  const parts = (contents.at(-1)?.['parts'] as Obj[] | undefined) ?? [];
  return parts.map((p) => (typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

/** A function call for the first declared tool when the request offers tools and the conversation has no function response yet. */
function functionCallOf(body: Obj): Obj | undefined {
  const tools = Array.isArray(body['tools']) ? (body['tools'] as Obj[]) : [];
  const decl = (tools[0]?.['functionDeclarations'] as Obj[] | undefined)?.[0];
  if (!decl) return undefined;
  const contents = (body['contents'] as Obj[] | undefined) ?? [];
  if (contents.some((c) => ((c['parts'] as Obj[] | undefined) ?? []).some((p) => 'functionResponse' in p))) return undefined;
  return { functionCall: { name: decl['name'], args: { city: 'Paris' } } };
}

const wantsThoughts = (body: Obj): boolean =>
  (body['generationConfig'] as { thinkingConfig?: { includeThoughts?: boolean } } | undefined)?.thinkingConfig?.includeThoughts === true;

/** The candidate parts of a reply: a thought when asked for, then the text (or a function call). */
function partsOf(body: Obj, text: string): Obj[] {
  return [...(wantsThoughts(body) ? [{ text: THOUGHT, thought: true }] : []), functionCallOf(body) ?? { text }];
}

function response(model: string, parts: Obj[], usage: Obj, finish: boolean, id: string): Obj {
  const candidate: Obj = { content: { parts, role: 'model' }, index: 0 };
  if (finish) candidate['finishReason'] = 'STOP';
  return { candidates: [candidate], usageMetadata: usage, modelVersion: versionOf(model), responseId: id };
}

/**
 * The stream's chunks: each carries the request's running usage (prompt counts from the first chunk, candidate
 * tokens growing), the last one the finish reason and the whole usage, as the API streams.
 */
function streamChunks(model: string, body: Obj, id: string): Obj[] {
  const call = functionCallOf(body);
  const texts: Obj[][] = call ? [[call]] : REPLY.map((t) => [{ text: t }]);
  if (wantsThoughts(body)) texts.unshift([{ text: THOUGHT, thought: true }]);
  return texts.map((parts, i) => {
    const last = i === texts.length - 1;
    const candidates = last ? USAGE_METADATA.candidatesTokenCount : (i + 1) * 10;
    const usage = last ? USAGE_METADATA : { ...USAGE_METADATA, candidatesTokenCount: candidates, totalTokenCount: USAGE_METADATA.promptTokenCount + candidates };
    return response(model, parts, usage, last, id);
  });
}

/** `batchEmbedContents`: one vector of 4 values per request, and the prompt tokens (5 per request). */
function embeddings(body: Obj): Obj {
  const requests = Array.isArray(body['requests']) ? (body['requests'] as Obj[]) : [];
  return {
    embeddings: requests.map((_, i) => ({ values: [0.1 * (i + 1), 0.2, 0.3, 0.4] })),
    usageMetadata: { promptTokenCount: 5 * requests.length, promptTokenDetails: [{ modality: 'TEXT', tokenCount: 5 * requests.length }] },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

let seq = 0;

/** Answers `POST /{v1|v1beta}/models/{model}:{method}`; a model named `fail-400` gets the API's error body. */
function answer(res: ServerResponse, path: string, body: Obj): void {
  const m = /^\/v1\w*\/(models\/[^:]+):(\w+)$/.exec(path);
  if (!m) return send(res, 404, { error: { code: 404, message: `no route ${path}`, status: 'NOT_FOUND' } });
  const [, model, method] = m as unknown as [string, string, string];
  if (model.includes('fail-400')) return send(res, 400, { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } });
  const id = `resp-${++seq}`;
  if (method === 'generateContent') return send(res, 200, response(model, partsOf(body, `${REPLY.join('')} (${lastUserText(body)})`), USAGE_METADATA, true, id));
  if (method === 'batchEmbedContents') return send(res, 200, embeddings(body));
  if (method !== 'streamGenerateContent') return send(res, 404, { error: { code: 404, message: `no method ${method}`, status: 'NOT_FOUND' } });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(streamChunks(model, body, id).map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(''));
}

/** Starts the fake Gemini API on 127.0.0.1, port 0. */
export async function startFakeGemini(): Promise<FakeGemini> {
  const requests: FakeGemini['requests'] = [];
  const { url, close } = await listenLoopback(
    onJsonRequest((_req, res, path, query, body) => {
      if (body === undefined) return send(res, 400, { error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } });
      requests.push({ path, query, body });
      answer(res, path, body);
    }),
  );
  return { url, requests, close };
}

/** Starts the fake in `beforeAll` and closes it in `afterAll`; returns a getter. */
export function useFakeGemini(): () => FakeGemini {
  return useStarted('useFakeGemini()', startFakeGemini);
}
