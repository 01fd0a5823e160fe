/**
 * Automatic function calling of `@google/genai`: the usage of every request one `generateContent` (or stream, or chat turn) makes, added up.
 * @module
 */
import { geminiUsage, sumUsage, type TokenUsage } from '../instrument/usage-model.js';
import type { MethodWrapper } from './client-proxy.js';
import { wrapLlmMethod, type LlmMethod } from './llm-call.js';

type Obj = Record<string, unknown>;
type Json = { json(): Promise<unknown> };

/** Whether the request gives a callable tool (an object with `callTool`), so the SDK may answer the model's function calls itself. */
function hasCallableTools(body: unknown): boolean {
  const tools = ((body as Obj | undefined)?.['config'] as Obj | undefined)?.['tools'];
  return Array.isArray(tools) && tools.some((t) => typeof (t as Obj | null)?.['callTool'] === 'function');
}

/** An SDK HTTP response whose `json()` hands the parsed body to `note` too (the body is read once, by the SDK). */
function tapped(response: Json, note: (body: unknown) => void): Json {
  const view = Object.create(response) as Json;
  view.json = () => response.json().then((body) => (note(body), body));
  return view;
}

/**
 * A `Models` of the same class over a view of its `ApiClient` that notes each request's `usageMetadata` (a stream's
 * running total: its last chunk read), so the usage of the requests one automatic-function-calling run makes is
 * known; `undefined` when `models` is not shaped so (another SDK version). The caller's client is not changed.
 */
function modelsNoting(models: object): { models: Obj; total(): TokenUsage | undefined } | undefined {
  const api = (models as { apiClient?: Obj }).apiClient;
  const Models = (models as { constructor?: unknown }).constructor;
  if (api == null || typeof api['request'] !== 'function' || typeof api['requestStream'] !== 'function' || typeof Models !== 'function') return undefined;
  const requests: unknown[] = [];
  const step = (): ((body: unknown) => void) => {
    const i = requests.push(undefined) - 1;
    return (body) => {
      const u = (body as Obj | null)?.['usageMetadata'];
      if (u !== undefined) requests[i] = u;
    };
  };
  const view = Object.create(api) as Obj;
  view['request'] = (req: unknown) => (api['request'] as (r: unknown) => Promise<Json>).call(api, req).then((r) => tapped(r, step()));
  view['requestStream'] = (req: unknown) =>
    (api['requestStream'] as (r: unknown) => Promise<AsyncIterable<Json>>).call(api, req).then((chunks) => notingChunks(chunks, step()));
  const total = (): TokenUsage | undefined => sumUsage(requests.map(geminiUsage).filter((u): u is TokenUsage => u !== undefined));
  return { models: new (Models as new (api: Obj) => Obj)(view), total };
}

async function* notingChunks(chunks: AsyncIterable<Json>, note: (body: unknown) => void): AsyncGenerator<Json> {
  for await (const chunk of chunks) yield tapped(chunk, note);
}

/**
 * `traced(spec)` for `generateContent` / `generateContentStream` of a `Models`: a request with callable tools runs on a
 * {@link modelsNoting} copy, and its call records the usage of all the requests the SDK made for it (`requests` = their
 * number), not only the last one's; any other request goes to the SDK's method as it is.
 */
export function tracedAfc(spec: LlmMethod, name: 'generateContent' | 'generateContentStream'): MethodWrapper {
  return (owner, method) => {
    const plain = wrapLlmMethod(spec, owner, method);
    return function traced(this: unknown, ...args: unknown[]): unknown {
      const noting = hasCallableTools(args[0]) ? modelsNoting(owner) : undefined;
      const own = noting?.models[name];
      if (noting === undefined || typeof own !== 'function') return plain.apply(this, args);
      const usage = (out: unknown): TokenUsage | undefined => noting.total() ?? spec.usage(out);
      return wrapLlmMethod({ ...spec, usage }, noting.models, own).apply(this, args);
    };
  };
}
