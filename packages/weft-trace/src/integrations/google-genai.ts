/**
 * wrapGoogleGenAI(): traces the Google Gen AI SDK's (`@google/genai`) generateContent, generateContentStream, embedContent and chats as ops with usage.
 * @module
 */
import { geminiUsage, type TokenUsage } from '../instrument/usage-model.js';
import { isWrappedClient, proxyPaths, type MethodWrapper } from './client-proxy.js';
import { tracedAfc } from './google-genai-afc.js';
import { foldGeminiChunk, geminiEmbeddingsOutput, geminiFacts, geminiFinishReasons, geminiOutput } from './google-genai-folds.js';
import { wrapLlmMethod, type LlmMethod } from './llm-call.js';

type Obj = Record<string, unknown>;

/** Usage of an embeddings response: `usageMetadata`, else the per-embedding `statistics.token_count` Vertex AI sends. */
function embeddingsUsage(out: unknown): TokenUsage | undefined {
  const o = out as Obj | undefined;
  const own = geminiUsage(o?.['usageMetadata']);
  if (own !== undefined || !Array.isArray(o?.['embeddings'])) return own;
  let tokens = 0;
  for (const e of o['embeddings'] as (Obj | undefined)[]) {
    const n = (e?.['statistics'] as Obj | undefined)?.['tokenCount'];
    if (typeof n === 'number') tokens += n;
  }
  return geminiUsage({ promptTokenCount: tokens });
}

/** The methods of one client: `gen_ai.provider.name` is `gcp.vertex_ai` for a Vertex AI client, else `gcp.gemini`. */
function methodsFor(provider: string): Record<'generate' | 'stream' | 'embed' | 'send' | 'sendStream', LlmMethod> {
  const generate: LlmMethod = {
    name: 'google_genai.models.generateContent',
    provider,
    operation: 'generate_content',
    fold: foldGeminiChunk,
    output: geminiOutput,
    usage: (out) => geminiUsage((out as Obj | undefined)?.['usageMetadata']),
    finishReasons: geminiFinishReasons,
    responseFacts: geminiFacts,
  };
  return {
    generate,
    stream: { ...generate, name: 'google_genai.models.generateContentStream' },
    embed: { ...generate, name: 'google_genai.models.embedContent', operation: 'embeddings', output: geminiEmbeddingsOutput, usage: embeddingsUsage, finishReasons: () => undefined },
    send: { ...generate, name: 'google_genai.chats.sendMessage', operation: 'chat' },
    sendStream: { ...generate, name: 'google_genai.chats.sendMessageStream', operation: 'chat' },
  };
}

const traced =
  (spec: LlmMethod): MethodWrapper =>
  (owner, method) =>
    wrapLlmMethod(spec, owner, method);

/**
 * `chats.create()` run on a view of `Chats` whose `modelsModule` (the `Models` a `Chat` sends through) traces
 * `generateContent` / `generateContentStream` as `google_genai.chats.sendMessage` / `sendMessageStream`: one call per
 * turn, whose request is the whole conversation the chat sent (its history, then the new message). A `Chats`
 * without a `modelsModule` object (another SDK version) creates its chat untraced.
 */
function tracedChats(m: ReturnType<typeof methodsFor>): MethodWrapper {
  let models: { from: object; to: object } | undefined;
  return (owner, method) =>
    function create(...args: unknown[]): unknown {
      const own = (owner as { modelsModule?: unknown }).modelsModule;
      if (own === null || typeof own !== 'object') return method.apply(owner, args) as unknown;
      if (models?.from !== own) models = { from: own, to: proxyPaths(own, { generateContent: tracedAfc(m.send, 'generateContent'), generateContentStream: tracedAfc(m.sendStream, 'generateContentStream') }) };
      const view = Object.create(owner) as { modelsModule: object };
      view.modelsModule = models.to;
      return method.apply(view, args) as unknown;
    };
}

/**
 * Returns `client` (a `GoogleGenAI` instance of `@google/genai`; tested with 3.x, for the Gemini API and Vertex AI)
 * with its model calls traced; the client itself is not changed, and the result has its type and every other
 * method. Each call is an op nested under the running call:
 * - `models.generateContent` → `google_genai.models.generateContent`; `models.generateContentStream` →
 *   `google_genai.models.generateContentStream`; `models.embedContent` → `google_genai.models.embedContent`;
 * - a chat of `chats.create(...)`: each `sendMessage` → `google_genai.chats.sendMessage` and each
 *   `sendMessageStream` → `google_genai.chats.sendMessageStream`, recording the request the chat sends (its
 *   history, then the new message) and the reply;
 * - inputs: the request (`model`, `contents`, `config`; secrets redacted as everywhere); attributes
 *   `gen_ai.provider.name` (`gcp.gemini`, or `gcp.vertex_ai` for a Vertex AI client), `gen_ai.operation.name`
 *   (`generate_content`, `chat`, `embeddings`), `gen_ai.request.model` (OpenTelemetry GenAI semantic conventions);
 * - output: the `GenerateContentResponse` without `sdkHttpResponse` (its HTTP headers); for a stream, the chunks
 *   assembled into one response (each candidate's text, thoughts and function calls, its finish reason, the last
 *   `usageMetadata`); for embeddings, each vector's dimensions instead of its values;
 * - summary: `usage[model]` from `usageMetadata` (see `geminiUsage`: thinking tokens `thoughtsTokenCount` as output
 *   and `reasoning_tokens`, cached tokens `cachedContentTokenCount` as `cache_read_input_tokens`), keyed by the
 *   response's `modelVersion`, else the request's model without its `models/` prefix; `time_to_first_token_ms`
 *   (streams: ms from the call's start to the first chunk read), `gen_ai.response.finish_reasons`,
 *   `gen_ai.response.model` (`modelVersion`), `gen_ai.response.id` (`responseId`);
 * - SDK errors are recorded and rethrown unchanged; `break` out of a stream ends the call as cancelled with what
 *   was received (usage as of the last chunk read, which carries the running total).
 * Automatic function calling with callable tools makes several requests inside one `generateContent` (or stream, or
 * chat turn): they are one call, whose usage is that of all of them, added up (`requests` = their number), streamed or
 * awaited (`google-genai-afc.ts`).
 * The `@google/genai` package is not imported: weft works without it. Wrapping twice returns the same object.
 * @example const ai = wrapGoogleGenAI(new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY }));
 * @see https://googleapis.github.io/js-genai/ and https://ai.google.dev/api/generate-content
 */
export function wrapGoogleGenAI<T extends object>(client: T): T {
  if (isWrappedClient(client)) return client;
  const m = methodsFor((client as { vertexai?: unknown }).vertexai === true ? 'gcp.vertex_ai' : 'gcp.gemini');
  return proxyPaths(client, {
    models: { generateContent: tracedAfc(m.generate, 'generateContent'), generateContentStream: tracedAfc(m.stream, 'generateContentStream'), embedContent: traced(m.embed) },
    chats: { create: tracedChats(m) },
  });
}
