/**
 * wrapAnthropic(): traces the Anthropic SDK's `messages.create` (streamed and not) and `messages.stream` as ops with usage.
 * @module
 */
import { anthropicUsage } from '../instrument/usage-model.js';
import { isWrappedClient, proxyPaths, type PathSpec } from './client-proxy.js';
import { wrapLlmMethod, type LlmMethod } from './llm-call.js';
import { cacheClientRequests } from './llm-cache/install.js';
import { clientRequestPath } from './request-facts.js';

type Obj = Record<string, unknown>;
type Block = Obj & { type?: string; text?: string; thinking?: string; partial_json?: string };

/** Applies one content-block delta (text, tool-input JSON, thinking, signature) to its block. */
function applyDelta(block: Block, delta: Obj): void {
  switch (delta['type']) {
    case 'text_delta':
      block.text = (block.text ?? '') + String(delta['text'] ?? '');
      break;
    case 'input_json_delta':
      block.partial_json = (block.partial_json ?? '') + String(delta['partial_json'] ?? '');
      break;
    case 'thinking_delta':
      block.thinking = (block.thinking ?? '') + String(delta['thinking'] ?? '');
      break;
    case 'signature_delta':
      block['signature'] = delta['signature'];
      break;
  }
}

/** A tool-use block's input, parsed from its streamed JSON once the block stops (kept as text if it does not parse). */
function closeBlock(block: Block): void {
  if (block.partial_json === undefined) return;
  try {
    block['input'] = JSON.parse(block.partial_json || '{}') as unknown;
    delete block.partial_json;
  } catch {
    // a block cut mid-way keeps its partial JSON
  }
}

/**
 * Folds one Messages stream event into a `message`: `message_start` (the message with its input usage),
 * content blocks and their deltas, `message_delta` (stop reason, cumulative output usage).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function foldMessageEvent(acc: unknown, event: unknown): unknown {
  const e = event as Obj;
  if (e['type'] === 'message_start') return { ...(e['message'] as Obj), content: [] };
  const a = (acc ?? { content: [] }) as Obj & { content: Block[] };
  const index = typeof e['index'] === 'number' ? e['index'] : 0;
  switch (e['type']) {
    case 'content_block_start':
      a.content[index] = { ...(e['content_block'] as Block) };
      break;
    case 'content_block_delta':
      if (a.content[index]) applyDelta(a.content[index], e['delta'] as Obj);
      break;
    case 'content_block_stop':
      if (a.content[index]) closeBlock(a.content[index]);
      break;
    case 'message_delta':
      Object.assign(a, e['delta'] as Obj);
      a['usage'] = { ...(a['usage'] as Obj | undefined), ...(e['usage'] as Obj | undefined) };
      break;
  }
  return a;
}

const BASE = {
  provider: 'anthropic',
  operation: 'chat',
  requestIdHeader: 'request-id',
  fold: foldMessageEvent,
  usage: (out: unknown) => anthropicUsage((out as Obj | undefined)?.['usage']),
  finishReasons: (out: unknown) => {
    const r = (out as Obj | undefined)?.['stop_reason'];
    return typeof r === 'string' ? [r] : undefined;
  },
} as const;

const CREATE: LlmMethod = { ...BASE, name: 'anthropic.messages.create' };
const STREAM: LlmMethod = { ...BASE, name: 'anthropic.messages.stream' };

/**
 * `messages.stream()` runs on a view of the resource whose `create` is traced as `anthropic.messages.stream`:
 * the SDK's `MessageStream` reads the traced stream, so events, `on(...)`, `finalMessage()` and iteration
 * all work as before and the call ends when the stream does.
 */
function tracedStream(spec: LlmMethod): (owner: object, method: Function) => Function {
  return (owner, method) => {
    const view = Object.create(owner) as { create: Function };
    view.create = wrapLlmMethod(spec, owner, (owner as { create: Function }).create);
    return function stream(...args: unknown[]): unknown {
      return method.apply(view, args);
    };
  };
}

function specOf(create: LlmMethod, stream: LlmMethod): PathSpec {
  return { messages: { create: (owner: object, method: Function) => wrapLlmMethod(create, owner, method), stream: tracedStream(stream) } };
}

const SPEC = specOf(CREATE, STREAM);

/** The spec of `client`: {@link SPEC}, or with `url.path` recorded when its base URL has a path (see `clientRequestPath`). */
function specFor(client: object): PathSpec {
  const urlPath = clientRequestPath(client, '')('/v1/messages');
  return urlPath === undefined ? SPEC : specOf({ ...CREATE, urlPath }, { ...STREAM, urlPath });
}

/**
 * Returns `client` (an `Anthropic` instance of `@anthropic-ai/sdk`; tested with 1.14) with `messages.create` (streamed and
 * not) and `messages.stream` traced as ops `anthropic.messages.create` / `anthropic.messages.stream`;
 * the client itself is not changed (but for its `fetch` when recorded model calls may be on) and the result keeps its type and every other method. What is
 * recorded is as for `wrapOpenAI`: the request, the message (a stream's events assembled into one
 * message: text, tool-use input, thinking, stop reason), `summary.usage[model]` with Anthropic's cache
 * counts added to the input total (see `anthropicUsage`), `time_to_first_token_ms`, finish reasons,
 * `request_id` (the `request-id` header), `url.path` when the client's base URL has a path or query; errors are
 * rethrown unchanged.
 * The SDK is not imported: weft works without it. Wrapping twice returns the same object.
 * Recorded model calls: as for `wrapOpenAI`, the client's `fetch` becomes `llmCacheFetch()` over it when
 * `WEFT_LLM_CACHE` (or `CI`) is set.
 * @example const anthropic = wrapAnthropic(new Anthropic());
 * @see https://docs.anthropic.com/en/api/messages
 */
export function wrapAnthropic<T extends object>(client: T): T {
  if (isWrappedClient(client)) return client;
  cacheClientRequests(client);
  return proxyPaths(client, specFor(client));
}
