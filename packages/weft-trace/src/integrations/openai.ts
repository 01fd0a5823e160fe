/**
 * wrapOpenAI(): traces the OpenAI SDK's model calls (Chat Completions, Responses, Embeddings) as ops with usage.
 * @module
 */
import { SKIP } from '../instrument/iterators.js';
import { openAIChatUsage, openAIResponsesUsage } from '../instrument/usage-model.js';
import { isWrappedClient, proxyPaths, type MethodWrapper, type PathSpec } from './client-proxy.js';
import { wrapLlmMethod, type LlmMethod } from './llm-call.js';
import { cacheClientRequests } from './llm-cache/install.js';
import { clientRequestPath } from './request-facts.js';
import { chatFinishReasons, embeddingsOutput, foldChatChunk, foldResponseEvent, responseFinishReasons } from './openai-folds.js';

type Obj = Record<string, unknown>;

const BASE = { provider: 'openai', requestIdHeader: 'x-request-id' } as const;

/**
 * What the caller's iterator yields for a chunk of a stream whose usage weft asked for, per request: the final
 * chunk holding usage (empty `choices`) is skipped, and the `usage: null` the API then adds to every other chunk
 * is removed, so each chunk is deep-equal to what the unwrapped SDK yields. Removing it in place (`delete`) keeps
 * the object fast in V8 only when `usage` is its last property (the object goes back to the shape it had before
 * it): whether it is, is learned from the first chunk (one key list per stream; every chunk of a stream has the
 * same key order), and when it is not (e.g. an `obfuscation` field after it) each chunk is copied without it
 * instead, so the caller never reads a dictionary-mode object. A chunk is never changed otherwise.
 */
function addedUsageStripper(): (chunk: unknown) => unknown {
  let usageLast: boolean | undefined;
  return (chunk) => {
    if (chunk === null || typeof chunk !== 'object') return chunk;
    const c = chunk as { usage?: unknown; choices?: unknown };
    const usage = c.usage;
    if (usage === null) {
      usageLast ??= lastKeyIs(c, 'usage');
      if (!usageLast) return withoutKey(c, 'usage');
      delete c.usage;
      return c;
    }
    return usage !== undefined && Array.isArray(c.choices) && c.choices.length === 0 ? SKIP : chunk;
  };
}

function lastKeyIs(o: object, key: string): boolean {
  const keys = Object.keys(o);
  return keys[keys.length - 1] === key;
}

/** A copy of `o`'s own enumerable properties but `key`, in their order. */
function withoutKey(o: object, key: string): Obj {
  const copy: Obj = {};
  for (const k in o) if (k !== key && Object.hasOwn(o, k)) copy[k] = (o as Obj)[k];
  return copy;
}

/**
 * A streamed chat request without `stream_options.include_usage` is sent with it (else OpenAI reports no
 * usage for streams); the caller's iterator still yields what it would have (see {@link addedUsageStripper}):
 * the extra final chunk (empty `choices`, the usage) is folded into the call and skipped. The request is
 * copied with `Object.assign`: in V8 a spread copy that then gains a property (`{...body, stream_options}`)
 * takes a slow path costing about 0.8 µs, ten times more.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
 */
function askForStreamUsage(body: Obj): ReturnType<NonNullable<LlmMethod['prepare']>> {
  const opts = body['stream_options'] as Obj | null | undefined;
  if (body['stream'] !== true || opts?.['include_usage'] === true) return undefined;
  const sent = Object.assign({}, body);
  sent['stream_options'] = opts == null ? { include_usage: true } : Object.assign({}, opts, { include_usage: true });
  return { body: sent, pass: addedUsageStripper() };
}

const CHAT: LlmMethod = {
  ...BASE,
  name: 'openai.chat.completions.create',
  operation: 'chat',
  prepare: askForStreamUsage,
  fold: foldChatChunk,
  usage: (out) => openAIChatUsage((out as Obj | undefined)?.['usage']),
  finishReasons: chatFinishReasons,
};

const RESPONSES: LlmMethod = {
  ...BASE,
  name: 'openai.responses.create',
  operation: 'chat',
  fold: foldResponseEvent,
  usage: (out) => openAIResponsesUsage((out as Obj | undefined)?.['usage']),
  finishReasons: responseFinishReasons,
};

const EMBEDDINGS: LlmMethod = {
  ...BASE,
  name: 'openai.embeddings.create',
  operation: 'embeddings',
  fold: (_acc, chunk) => chunk,
  output: embeddingsOutput,
  usage: (out) => openAIChatUsage((out as Obj | undefined)?.['usage']),
  finishReasons: () => undefined,
};

const traced =
  (spec: LlmMethod): MethodWrapper =>
  (owner, method) =>
    wrapLlmMethod(spec, owner, method);

/** The methods as a client whose base URL path is not the default records them: with `url.path` (see `clientRequestPath`). */
function methodsOf(client: object): { chat: LlmMethod; responses: LlmMethod; embeddings: LlmMethod } {
  const at = clientRequestPath(client, '/v1');
  return {
    chat: { ...CHAT, urlPath: at('/chat/completions') },
    responses: { ...RESPONSES, urlPath: at('/responses') },
    embeddings: { ...EMBEDDINGS, urlPath: at('/embeddings') },
  };
}

/**
 * A stream helper (`chat.completions.stream`, `responses.stream`) run on a view of its resource whose
 * `_client` is `client` seen through a spec tracing the requests the helpers make (as
 * `openai.chat.completions.stream` / `openai.responses.stream`): the helper's own request is traced, so its
 * events, `finalChatCompletion()` / `finalResponse()` and iteration work as before.
 */
function viaTracedClient(client: object, methods: ReturnType<typeof methodsOf>): MethodWrapper {
  let helperClient: object | undefined;
  const helperSpec = {
    chat: { completions: { create: traced({ ...methods.chat, name: 'openai.chat.completions.stream' }) } },
    responses: { create: traced({ ...methods.responses, name: 'openai.responses.stream' }) },
  };
  return (owner, method) =>
    function stream(...args: unknown[]): unknown {
      const view = Object.create(owner) as { _client: object };
      view._client = helperClient ??= proxyPaths(client, helperSpec);
      return method.apply(view, args) as unknown;
    };
}

function specFor(client: object): PathSpec {
  const methods = methodsOf(client);
  const helper = viaTracedClient(client, methods);
  return {
    chat: { completions: { create: traced(methods.chat), stream: helper } },
    responses: { create: traced(methods.responses), stream: helper },
    embeddings: { create: traced(methods.embeddings) },
  };
}

/**
 * Returns `client` (an `OpenAI` instance of the `openai` package; tested with 6.x and 7.x) with its model calls traced; the
 * client itself is not changed (but for its `fetch`, see below), and the result has its type and every other method. Each call of
 * `chat.completions.create`, `responses.create` and `embeddings.create` is an op (named so, prefixed
 * `openai.`) nested under the running call, and so is the request of the stream helpers
 * `chat.completions.stream` and `responses.stream` (ops `openai.chat.completions.stream`, `openai.responses.stream`):
 * - inputs: the request body (secrets redacted as everywhere); attributes `gen_ai.provider.name`,
 *   `gen_ai.operation.name`, `gen_ai.request.model` (OpenTelemetry GenAI semantic conventions), and `url.path`
 *   (the request's path and query) when the client's base URL path is not `/v1` or it has a `defaultQuery`;
 * - output: the response; for `stream: true`, the assembled completion (content, tool calls, refusal,
 *   finish reason) instead of the chunks, and usage is requested (`stream_options.include_usage`)
 *   without changing what the caller's iterator yields;
 * - summary: `usage[model]` (see `TokenUsage` in `instrument/usage-model.ts`), `time_to_first_token_ms`
 *   (streams: ms from the call's start to the first chunk read), `gen_ai.response.finish_reasons`,
 *   `gen_ai.response.model`, `gen_ai.response.id`, and `request_id` (the `x-request-id` header). These are
 *   known only when the call ends, and a call's attributes are sent with its start (the call-start body of
 *   the service interface; the end carries output and summary), so they are summary fields, under their
 *   OpenTelemetry GenAI names;
 * - `.withResponse()` records the completion itself (not `{data, response}`); `.asResponse()` records the
 *   JSON body read from a clone; SDK errors are recorded and rethrown unchanged; `break` out of a stream
 *   ends the call as cancelled with what was received. OpenAI reports a stream's usage only in its last
 *   chunk, so a chat stream left before it records `requests: 1` and zero tokens: weft does not estimate
 *   tokens it was not told of (the Responses API's `response.created` event carries no usage either);
 * - `tee()` of a stream splits the traced stream: the call ends when the shared source is read to its end.
 * The `openai` package is not imported: weft works without it. Wrapping twice returns the same object.
 * Recorded model calls: when `WEFT_LLM_CACHE` is set (or `CI`, where a describeEval replays), the client's `fetch` is
 * replaced, once, by `llmCacheFetch()` over it (the one change made to the client), so its requests are recorded or
 * replayed and the call gets `summary.cache` (see `llmCacheFetch`).
 * @example const openai = wrapOpenAI(new OpenAI());
 * @see https://platform.openai.com/docs/api-reference
 */
export function wrapOpenAI<T extends object>(client: T): T {
  if (isWrappedClient(client)) return client;
  cacheClientRequests(client);
  return proxyPaths(client, specFor(client));
}
