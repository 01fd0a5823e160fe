/**
 * What the wrappers record of a model request beyond its body, so `weft calls cassette` can rebuild it exactly: its URL path (`url.path`) where the stored call does not imply it, and the body's keys left `undefined`.
 * @module
 */

type Obj = Record<string, unknown>;

/** The attribute holding a request's URL path and query (OpenTelemetry's `url.path`; here with the query). */
export const URL_PATH_ATTRIBUTE = 'url.path';

/**
 * The attribute listing the request body's top-level keys whose value is `undefined`: the SDK's JSON leaves them out,
 * while weft records them as `null`, so `weft calls cassette` needs it to rebuild the body sent.
 */
export const UNDEFINED_KEYS_ATTRIBUTE = 'weft.request.undefined_keys';

/** The top-level keys of `body` whose value is `undefined`, or `undefined` when there are none (the usual case). */
export function undefinedKeys(body: Record<string, unknown>): string[] | undefined {
  let keys: string[] | undefined;
  for (const k in body) if (body[k] === undefined) (keys ??= []).push(k);
  return keys;
}

/** A base URL split into the path its endpoints are appended to (no trailing `/`) and its query (without `?`). */
interface BasePath {
  path: string;
  query: string;
}

/** The path and query of `base` plus a client's `defaultQuery` (the `openai` SDK appends it to every request); `undefined` for a URL that does not parse. */
function basePathOf(base: unknown, defaultQuery: unknown): BasePath | undefined {
  if (typeof base !== 'string') return undefined;
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return undefined;
  }
  const params = new URLSearchParams(u.search);
  if (defaultQuery !== null && typeof defaultQuery === 'object') {
    for (const [k, v] of Object.entries(defaultQuery as Obj)) if (v !== undefined && v !== null) params.set(k, String(v));
  }
  return { path: u.pathname.replace(/\/+$/, ''), query: params.toString() };
}

function joined(base: BasePath, endpoint: string): string {
  return `${base.path}${endpoint}${base.query ? `?${base.query}` : ''}`;
}

/**
 * For a client of the `openai` or `@anthropic-ai/sdk` package (both keep `baseURL` as a public field, and options as
 * `_options`): a function giving the `url.path` of a request to `endpoint` (e.g. `/chat/completions`), or `undefined`
 * when the path is the provider's default (`defaultPath` + endpoint, e.g. `/v1` + `/chat/completions`), which the
 * stored call then implies. Read once per wrapped client.
 */
export function clientRequestPath(client: object, defaultPath: string): (endpoint: string) => string | undefined {
  const c = client as { baseURL?: unknown; _options?: { defaultQuery?: unknown } };
  const base = basePathOf(c.baseURL, c._options?.defaultQuery);
  if (base === undefined || (base.path === defaultPath && base.query === '')) return () => undefined;
  return (endpoint) => joined(base, endpoint);
}

/** The endpoint of each AI SDK provider API weft can rebuild requests of (`model.provider`, e.g. `openai.chat`). */
const AI_SDK_ENDPOINTS: Readonly<Record<string, string>> = { 'openai.chat': '/chat/completions' };

const aiPaths = new WeakMap<object, string | null>();

/**
 * The `url.path` of an AI SDK provider model's requests (its `config.url({path, modelId})`, as `@ai-sdk/*` providers
 * build their URLs), for the provider APIs of {@link AI_SDK_ENDPOINTS}; `undefined` for another model. Once per model.
 */
export function aiModelRequestPath(model: unknown): string | undefined {
  if (model === null || typeof model !== 'object') return undefined;
  let path = aiPaths.get(model);
  if (path === undefined) {
    path = null;
    const m = model as { provider?: unknown; modelId?: unknown; config?: { url?: unknown } };
    const endpoint = typeof m.provider === 'string' ? AI_SDK_ENDPOINTS[m.provider] : undefined;
    const url = m.config?.url;
    if (endpoint !== undefined && typeof url === 'function') {
      try {
        const u = new URL(String((url as (o: Obj) => unknown).call(m.config, { path: endpoint, modelId: m.modelId })));
        path = `${u.pathname}${u.search}`;
      } catch {
        path = null;
      }
    }
    aiPaths.set(model, path);
  }
  return path ?? undefined;
}
