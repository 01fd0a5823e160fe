/**
 * How the wrappers reach a client's requests for recorded model calls: the `fetch` of an OpenAI or Anthropic client, the `config.fetch` of an AI SDK model.
 * @module
 */
import { llmCacheFetch, isLlmCacheFetch } from './fetch.js';
import { llmCacheMayApply } from './mode.js';

type Obj = Record<string, unknown>;

/**
 * Gives `client` (an `openai` or `@anthropic-ai/sdk` client) a {@link llmCacheFetch} over its own `fetch` when the
 * cache may be on (see `llmCacheMayApply`), once. Both SDKs keep the `fetch` option as the public instance field
 * `fetch`, read on every request (and copied by `withOptions()`); the cache's fetch calls the client's own for live
 * requests, so nothing else changes. With the cache off the client is not touched.
 */
export function cacheClientRequests(client: object): void {
  if (!llmCacheMayApply()) return;
  const c = client as { fetch?: unknown };
  if (typeof c.fetch !== 'function' || isLlmCacheFetch(c.fetch)) return;
  c.fetch = llmCacheFetch({ fetch: c.fetch as typeof fetch });
}

const models = new WeakMap<object, object>();

/**
 * A view of an AI SDK provider model (`openai('gpt-4o')`, ...) whose `config.fetch` is a {@link llmCacheFetch} over
 * its own (`@ai-sdk/*` providers read `this.config.fetch` per request); the model itself is not changed. A model
 * without a `config` object (a string id, a custom model) is returned as is. One view per model.
 */
export function cachedModel(model: unknown): unknown {
  if (model === null || typeof model !== 'object') return model;
  const config = (model as { config?: unknown }).config;
  if (config === null || typeof config !== 'object' || isLlmCacheFetch((config as Obj)['fetch'])) return model;
  let view = models.get(model);
  if (!view) {
    const own = (config as Obj)['fetch'];
    const fetch = llmCacheFetch(typeof own === 'function' ? { fetch: own as typeof globalThis.fetch } : {});
    view = Object.create(model, { config: { value: { ...(config as Obj), fetch }, enumerable: true } }) as object;
    models.set(model, view);
  }
  return view;
}
