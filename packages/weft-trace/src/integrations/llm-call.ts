/**
 * One traced model request of an SDK built on `APIPromise` (OpenAI, Anthropic): the call, its stream, usage and time to first token (its promise behind a Proxy: api-promise-proxy.ts).
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { runInContext } from '../instrument/context.js';
import { InputKeys } from '../instrument/input-keys.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { SKIP } from '../instrument/iterators.js';
import { streamKind, wrapStream, type StreamObserver } from '../instrument/streams.js';
import { thenOf } from '../instrument/thenable.js';
import { unreportedUsage, usageByModel, type TokenUsage } from '../instrument/usage-model.js';
import { PROMPT_REF_ATTRIBUTE, promptRefOf } from '../prompts/prompt-marker.js';
import { UNDEFINED_KEYS_ATTRIBUTE, undefinedKeys, URL_PATH_ATTRIBUTE } from './request-facts.js';
import { proxyApiPromise, type ResponseLike, type SettlingCall } from './api-promise-proxy.js';
import { exchangeReporter } from './rollout-hook.js';
import { withTracedReadable } from './sdk-stream.js';
import { startRecorded } from './start-recorded.js';

/** What a wrapper knows about one SDK method. */
export interface LlmMethod {
  /** The op name, e.g. `openai.chat.completions.create`. */
  readonly name: string;
  /** `gen_ai.provider.name` (OpenTelemetry GenAI semantic conventions), e.g. `openai`. */
  readonly provider: string;
  /** `gen_ai.operation.name`: `chat`, `embeddings`, ... */
  readonly operation: string;
  /**
   * The request's URL path and query (`url.path`), given when it is not the provider's default for this method (a
   * client with another base URL path): what `weft calls cassette` needs besides the body to rebuild the request.
   */
  readonly urlPath?: string | undefined;
  /** Response header with the provider's request id (read from `withResponse()` / `asResponse()`), when the SDK gives headers. */
  readonly requestIdHeader?: string;
  /**
   * The request actually sent when it differs from the caller's (e.g. asking for stream usage), with
   * `pass`: what the caller's iterator yields for a chunk of the stream: the chunk, the same chunk
   * without what the caller did not ask for, or `SKIP` (`instrument/iterators.ts`) for a chunk the caller
   * must not see (it is still folded into usage). Made per request, so it may keep state across chunks.
   */
  prepare?(body: Record<string, unknown>): { body: Record<string, unknown>; pass: (chunk: unknown) => unknown } | undefined;
  /** Folds one stream chunk or event into a response-shaped value (`undefined` at first). */
  fold(acc: unknown, chunk: unknown): unknown;
  /** The recorded output of a response (or of a folded stream). @defaultValue the response */
  output?(response: unknown): unknown;
  /** The model the request names (`gen_ai.request.model`). @defaultValue the body's `model` */
  requestModel?(body: Record<string, unknown>): unknown;
  /** Usage of a response, or `undefined`. */
  usage(response: unknown): TokenUsage | undefined;
  /** `gen_ai.response.finish_reasons`. */
  finishReasons(response: unknown): string[] | undefined;
  /**
   * The model and id the response names (`gen_ai.response.model`, `gen_ai.response.id`), and the model its usage
   * is keyed by when it names none. @defaultValue the response's `model` and `id`, else the request's `model`
   */
  responseFacts?(response: unknown, body: Record<string, unknown>): ResponseFacts;
}

/** What a response says of itself (see {@link LlmMethod.responseFacts}). */
export interface ResponseFacts {
  model?: string | undefined;
  id?: string | undefined;
  /** The model `summary.usage` is keyed by when `model` is absent. */
  requestModel?: unknown;
}

function defaultFacts(out: unknown, body: Record<string, unknown>): ResponseFacts {
  const o = (out ?? {}) as { model?: unknown; id?: unknown };
  return { model: typeof o.model === 'string' ? o.model : undefined, id: typeof o.id === 'string' ? o.id : undefined, requestModel: body['model'] };
}

const KEYS = new InputKeys(['body', 'options']);

/** Returns what the SDK method returns, traced: an `APIPromise` keeps `withResponse()`, `asResponse()` and its type. */
export function wrapLlmMethod(spec: LlmMethod, owner: object, method: Function): Function {
  return function traced(this: unknown, ...args: unknown[]): unknown {
    const body = args[0];
    if (body === null || typeof body !== 'object') return method.apply(owner, args);
    const call = new LlmCall(spec, body as Record<string, unknown>);
    const active = startRecorded(call.op, args);
    if (active === undefined) return method.apply(owner, args);
    call.active = active;
    if (active.ctx.rollout !== undefined) call.report = exchangeReporter(active.ctx.rollout, spec.name, body as Record<string, unknown>);
    call.startedAtMs = active.call.startedAtMs;
    const prepared = spec.prepare?.(body as Record<string, unknown>);
    const sent = prepared ? [prepared.body, ...args.slice(1)] : args;
    call.strip = prepared?.pass;
    let result: unknown;
    try {
      result = runInContext(active.ctx, () => method.apply(owner, sent) as unknown);
    } catch (err) {
      active.fail(err);
      throw err;
    }
    if (!thenOf(result)) return call.settle(active, result, undefined);
    return proxyApiPromise(result as PromiseLike<unknown> & object, call, active);
  };
}

function inputsOf(inputs: Record<string, unknown>): Record<string, unknown> {
  const b = inputs['body'];
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : inputs;
}

/** `_request_id` (OpenAI, Anthropic), else `$metadata.requestId` (AWS SDK v3). */
function requestIdOf(value: unknown): string | undefined {
  const v = value !== null && typeof value === 'object' ? (value as { _request_id?: unknown; $metadata?: { requestId?: unknown } }) : undefined;
  const id = v?._request_id ?? v?.$metadata?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The state of one model request: its op definition (hooks that see this state) and what the stream told.
 * It observes the stream for the call: no context switch per chunk (`ctx` is `undefined`: the SDK's steps
 * read and parse the response body, no traced code runs in them), and the chunks `strip` hides are folded
 * here and skipped (`pass`).
 */
class LlmCall implements StreamObserver, SettlingCall {
  readonly op: OpDefinition;
  readonly ctx = undefined;
  active!: ActiveCall;
  startedAtMs = 0;
  timeToFirstTokenMs: number | undefined;
  requestId: string | undefined;
  /** The SDK's `APIPromise` of the request, whose `asResponse()` gives a stream's headers (a `Stream` has no `_request_id`). */
  source: { asResponse?: unknown } | undefined;
  strip: ((chunk: unknown) => unknown) | undefined;
  /** Tells the rollout the request ran in (`trajectory()`) of its response; set only inside one. */
  report: ((response: unknown) => void) | undefined;
  private hidden: unknown;
  private handedOn: unknown;
  private first: unknown;
  private settled = false;

  constructor(
    private readonly spec: LlmMethod,
    private readonly body: Record<string, unknown>,
  ) {
    const attributes: Record<string, unknown> = { 'gen_ai.provider.name': spec.provider, 'gen_ai.operation.name': spec.operation };
    const model = spec.requestModel ? spec.requestModel(body) : body['model'];
    if (typeof model === 'string') attributes['gen_ai.request.model'] = model;
    if (spec.urlPath !== undefined) attributes[URL_PATH_ATTRIBUTE] = spec.urlPath;
    const unset = undefinedKeys(body);
    if (unset !== undefined) attributes[UNDEFINED_KEYS_ATTRIBUTE] = unset;
    const promptRef = promptRefOf(body['messages']);
    if (promptRef !== undefined) attributes[PROMPT_REF_ATTRIBUTE] = promptRef;
    this.op = {
      name: spec.name,
      inputKeys: KEYS,
      options: {
        attributes,
        postprocessInputs: inputsOf,
        streamReducer: (acc, chunk, index) => {
          if (index === 0) this.timeToFirstTokenMs = Date.now() - this.startedAtMs;
          return spec.fold(acc, chunk);
        },
        postprocessOutput: (out) => (spec.output ? spec.output(out) : out),
        summarize: (out) => (this.report?.(out), this.summary(out)),
      },
    };
  }

  /** What the caller gets for `chunk` (`strip`, else the chunk); one it must not see is folded into what the recorded stream knows (its usage). */
  pass(chunk: unknown): unknown {
    const strip = this.strip;
    if (strip === undefined) return chunk;
    const passed = strip(chunk);
    if (passed === SKIP) this.hidden = this.spec.fold(this.hidden, chunk);
    return passed;
  }

  chunk(value: unknown): void {
    this.active.chunk(value);
  }

  complete(): void {
    this.active.complete();
  }

  fail(err: unknown): void {
    this.active.fail(err);
  }

  cancel(): void {
    this.active.cancel();
  }

  /** The fulfilled value (first time: ends the call, or hands on the traced stream); later settlements get theirs back. */
  settle(active: ActiveCall, value: unknown, response: { headers: { get(name: string): string | null } } | undefined): unknown {
    if (this.settled) return value === this.first ? this.handedOn : value;
    this.settled = true;
    this.first = value;
    this.requestId = requestIdOf(value) ?? this.header(response);
    if (streamKind(value) === 'asyncIterable') {
      if (this.requestId === undefined) this.readRequestId();
      this.handedOn = withTracedReadable(wrapStream('asyncIterable', value, this) as object, value as object);
    } else {
      this.handedOn = value;
      active.succeed(value);
    }
    return this.handedOn;
  }

  /**
   * Reads the request id of a stream from the response headers (`asResponse()` of the settled request
   * gives the response already received, without reading its body); recorded when the stream ends.
   */
  private readRequestId(): void {
    const source = this.source;
    const asResponse = source?.asResponse;
    if (typeof asResponse !== 'function') return;
    void Promise.resolve()
      .then(() => asResponse.call(source) as Promise<ResponseLike | undefined>)
      .then((r) => {
        this.requestId ??= this.header(r);
      }, () => undefined);
  }

  /** The request id header of `response`, when the method names one. */
  private header(response: { headers: { get(name: string): string | null } } | undefined): string | undefined {
    const name = this.spec.requestIdHeader;
    return name === undefined ? undefined : response?.headers.get(name) ?? undefined;
  }

  /** Summary fields: usage by model, time to first token, finish reasons, response model and request id. */
  private summary(out: unknown): Record<string, unknown> {
    const spec = this.spec;
    const o = (spec.responseFacts ?? defaultFacts)(out, this.body);
    const model = o.model ?? o.requestModel;
    const usage = spec.usage(out) ?? spec.usage(this.hidden) ?? unreportedUsage();
    const extra: Record<string, unknown> = { usage: usageByModel(model, usage) };
    if (this.timeToFirstTokenMs !== undefined) extra['time_to_first_token_ms'] = this.timeToFirstTokenMs;
    const reasons = spec.finishReasons(out);
    if (reasons?.length) extra['gen_ai.response.finish_reasons'] = reasons;
    if (o.model !== undefined) extra['gen_ai.response.model'] = o.model;
    if (o.id !== undefined) extra['gen_ai.response.id'] = o.id;
    if (this.requestId) extra['request_id'] = this.requestId;
    return extra;
  }
}
