/**
 * llmCacheFetch(): a `fetch` that records provider responses to a cassette and replays them, for SDKs given a `fetch` option.
 * @module
 */
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { parentContext } from '../../instrument/framework-context.js';
import { cassetteAt, cassettePath, type CassetteLocation } from './cassette.js';
import { recordable, recordResponse, replayResponse } from './exchange.js';
import { normalizeRequest, requestKey, type NormalizedRequest } from './key.js';
import { llmCacheMode, type LlmCacheMode } from './mode.js';
import { missMessage, missResponse } from './miss.js';

/** Options of {@link llmCacheFetch}. */
export interface LlmCacheFetchOptions {
  /** The mode, fixed. @defaultValue read per request: `WEFT_LLM_CACHE`, else `replay` in CI inside a `weft-trace/vitest` eval, else `off` */
  mode?: LlmCacheMode;
  /** The cassette folder. @defaultValue `WEFT_LLM_CACHE_DIR`, else `__llm_cache__/` beside the running test file (or in the working directory) */
  dir?: string;
  /** The cassette file itself (overrides `dir`). @defaultValue `<dir>/<test file name>.jsonl` (`llm-cache.jsonl` outside a test) */
  file?: string;
  /** The `fetch` that makes live requests (in `record` and `off`). @defaultValue `globalThis.fetch` at request time */
  fetch?: typeof fetch;
}

const CACHE_FETCH = Symbol.for('weft.llmCacheFetch');

/** Whether `f` is a fetch made by {@link llmCacheFetch}. */
export function isLlmCacheFetch(f: unknown): boolean {
  return typeof f === 'function' && (f as { [CACHE_FETCH]?: unknown })[CACHE_FETCH] === true;
}

/** The body of a fetch request as text (a `Request`'s read from a clone), or `undefined` without one. */
async function bodyText(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string | undefined> {
  const body = init?.body ?? undefined;
  if (body === undefined || body === null) return input instanceof Request && init?.body === undefined ? await input.clone().text() : undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body as ArrayBuffer);
  throw new TypeError(`a ${Object.prototype.toString.call(body)} body cannot be keyed`);
}

async function normalized(input: RequestInfo | URL, init: RequestInit | undefined): Promise<NormalizedRequest> {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  return normalizeRequest(method, url, await bodyText(input, init));
}

/** Marks the running weft call (the model call a wrapper records) as recorded or replayed: `summary.cache`. */
function markCall(mode: 'record' | 'replay'): void {
  parentContext([])?.call?.setSummaryField('cache', mode);
}

/**
 * Returns a `fetch` for a provider SDK that records its responses to a cassette and replays them: give it where the
 * SDK takes one (`new OpenAI({ fetch })`, `new Anthropic({ fetch })`, `createOpenAI({ fetch })` and the other
 * `@ai-sdk/*` providers, LangChain's `new ChatOpenAI({ configuration: { fetch } })`). `wrapOpenAI`, `wrapAnthropic`
 * and `wrapAISDK` install it themselves when the cache may be on, so it is needed only where no wrapper reaches.
 *
 * A request is keyed by a hash of its method, path and JSON body with keys sorted: not the host, headers, API key,
 * `user-agent`, `x-stainless-*` or request ids, and not query parameters that carry credentials. Per mode:
 * - `record`: the request is sent and its response stored (status, `content-type` and request id headers, the JSON
 *   body, or an event stream's events in order) as one line of the cassette, replacing the line of the same key;
 *   a response a retry may change (408, 409, 429, 5xx) is not stored. The caller reads the live response.
 * - `replay`: the stored response answers (an event stream one event per chunk, so the SDK parses it as live);
 *   nothing reaches the network. A request not in the cassette gets an HTTP 404 whose error message names the
 *   request (method, path, model, an excerpt of its last message), its key, the cassette and the command that
 *   records it (`WEFT_LLM_CACHE=record npx vitest run <file>`); the SDK throws it as its own error (not retried).
 * - `off`: the request goes to `options.fetch` untouched.
 * The weft call running the request (the wrapper's model call; a framework's model run when it is the one running)
 * gets `summary.cache: "record"` or `"replay"` (not on a request missing from the cassette).
 * A failure of the cache itself in `record` is logged and the request made live; it never throws.
 * Cassettes are JSONL, one exchange per line sorted by key, never holding an API key: commit them.
 * @param options - mode, cassette folder or file, and the live `fetch`; see {@link LlmCacheFetchOptions}.
 * @example
 * import OpenAI from 'openai';
 * import { llmCacheFetch } from 'weft-trace';
 * const openai = new OpenAI({ fetch: llmCacheFetch() });
 */
export function llmCacheFetch(options: LlmCacheFetchOptions = {}): typeof fetch {
  const live = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => (options.fetch ?? globalThis.fetch)(input, init);
  const cached = async function weftLlmCacheFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const mode = options.mode ?? llmCacheMode();
    if (mode === 'off') return live(input, init);
    let req: NormalizedRequest;
    let key: string | undefined;
    let file: string;
    try {
      req = await normalized(input, init);
      key = requestKey(req);
      file = cassettePath(options);
    } catch (err) {
      const why = `weft LLM cache (${mode}): cannot key this request (${safeMessage(err)})`;
      if (mode === 'replay') return missResponse(why);
      diag.warn(`${why}; it is sent live, not recorded`);
      return live(input, init);
    }
    if (key === undefined) return mode === 'replay' ? missResponse('weft LLM cache (replay): this runtime has no node:crypto') : live(input, init);
    if (mode === 'replay') {
      const hit = cassetteAt(file).get(key);
      if (!hit) return missResponse(missMessage(req, key, file));
      markCall(mode);
      return replayResponse(hit.response);
    }
    markCall(mode);
    const res = await live(input, init);
    if (!recordable(res.status)) return res;
    const k = key;
    return recordResponse(res, (response) => {
      try {
        cassetteAt(file).put({ key: k, request: req, response });
      } catch (err) {
        diag.warn(`weft LLM cache (record): could not write ${file}: ${safeMessage(err)}`);
      }
    });
  };
  Object.defineProperty(cached, CACHE_FETCH, { value: true });
  return cached as typeof fetch;
}
