/**
 * wrapAISDK's view of an operation's model: each step's model request (`doGenerate` / `doStream`) recorded as a call of its own under the operation's call.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { runInContext } from '../instrument/context.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { defineAiStep, modelOf, startedAiCall, STEP_OPS, type AiCallState, type AiStepResult } from './ai-sdk-record.js';
import { readThrough } from './read-through.js';
import { startRecorded } from './start-recorded.js';

type Obj = Record<string, unknown>;
type Request = (params: Obj) => PromiseLike<Obj>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object';

/** Runs `f`, logging (never throwing) a failure of weft's own bookkeeping. */
function safely<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (err) {
    diag.warn(`wrapAISDK: could not record a step's model request: ${safeMessage(err)}`);
    return undefined;
  }
}

/**
 * A model's usage as `ai`'s `LanguageModelUsage` (what `aiSdkUsage` reads): a V3 / V4 provider usage
 * (`{inputTokens: {total, cacheRead, cacheWrite}, outputTokens: {total, reasoning}}`) flattened as `ai` itself does;
 * a V2 usage (already flat) as it is.
 */
function flatUsage(u: unknown): unknown {
  if (!isObj(u) || (!isObj(u['inputTokens']) && !isObj(u['outputTokens']))) return u;
  const i = (isObj(u['inputTokens']) ? u['inputTokens'] : {}) as Obj;
  const o = (isObj(u['outputTokens']) ? u['outputTokens'] : {}) as Obj;
  return {
    inputTokens: i['total'],
    outputTokens: o['total'],
    inputTokenDetails: { cacheReadTokens: i['cacheRead'], cacheWriteTokens: i['cacheWrite'] },
    outputTokenDetails: { reasoningTokens: o['reasoning'] },
  };
}

/** A finish reason: V3 / V4 `{unified, raw}` as its unified string, V2's string as it is. */
const unified = (f: unknown): string | undefined => (typeof f === 'string' ? f : isObj(f) && typeof f['unified'] === 'string' ? f['unified'] : undefined);

/** A content part of a provider's reply, a tool call's `input` (JSON text at this level) parsed as `ai` parses it. */
function contentPart(p: unknown): unknown {
  if (!isObj(p) || p['type'] !== 'tool-call' || typeof p['input'] !== 'string') return p;
  try {
    return { ...p, input: JSON.parse(p['input']) as unknown };
  } catch {
    return p;
  }
}

/**
 * The provider's HTTP request body of a `doGenerate` / `doStream` result (`request.body`): by reference, or a shallow
 * copy without the top-level settings left `undefined` when it has some (the request sent as JSON has none, and weft
 * records an `undefined` as `null`); `undefined` when it tells none.
 */
function requestOf(r: Obj): { body: unknown } | undefined {
  const body = isObj(r['request']) ? r['request']['body'] : undefined;
  if (body === undefined) return undefined;
  if (!isObj(body) || Array.isArray(body)) return { body };
  let sent: Obj | undefined;
  for (const k in body) if (body[k] === undefined) sent ??= {};
  if (sent === undefined) return { body };
  for (const k in body) if (body[k] !== undefined) sent[k] = body[k];
  return { body: sent };
}

/** What a `doGenerate` result tells of its request. */
function generated(r: Obj): AiStepResult {
  const response = (isObj(r['response']) ? r['response'] : {}) as Obj;
  const content = Array.isArray(r['content']) ? r['content'].map(contentPart) : [];
  const out: AiStepResult = { content, finishReason: unified(r['finishReason']), usage: flatUsage(r['usage']), response: { id: response['id'] as string | undefined, modelId: response['modelId'] as string | undefined } };
  const request = requestOf(r);
  if (request !== undefined) out.request = request;
  return out;
}

/** Reads a `doStream` stream's parts as they pass: the reply's content (deltas joined), finish, usage, response id and model. */
class StreamedStep {
  private readonly content: Obj[] = [];
  private readonly open = new Map<string, Obj>();
  private finish: Obj | undefined;
  private readonly response: { id?: string; modelId?: string } = {};
  error: unknown;

  constructor(
    private readonly state: AiCallState,
    private readonly startedAtMs: number,
    private readonly request: { body: unknown } | undefined,
  ) {}

  note(part: Obj): void {
    const type = part['type'];
    if (this.state.ttft === undefined && (type === 'text-delta' || type === 'reasoning-delta' || type === 'tool-input-delta' || type === 'tool-call')) {
      this.state.ttft = Date.now() - this.startedAtMs;
    }
    if (type === 'text-delta' || type === 'reasoning-delta') {
      const kind = type === 'text-delta' ? 'text' : 'reasoning';
      const key = `${kind}:${String(part['id'])}`;
      let p = this.open.get(key);
      if (p === undefined) this.content.push((p = { type: kind, text: '' })), this.open.set(key, p);
      p['text'] = `${p['text'] as string}${String(part['delta'] ?? '')}`;
    } else if (type === 'tool-call') {
      const { type: _t, ...call } = part;
      this.content.push(contentPart({ type: 'tool-call', ...call }) as Obj);
    } else if (type === 'response-metadata') {
      if (typeof part['id'] === 'string') this.response.id = part['id'];
      if (typeof part['modelId'] === 'string') this.response.modelId = part['modelId'];
    } else if (type === 'finish') this.finish = part;
    else if (type === 'error') this.error = part['error'];
  }

  result(): AiStepResult {
    const out: AiStepResult = { content: this.content, finishReason: unified(this.finish?.['finishReason']), usage: flatUsage(this.finish?.['usage']), response: this.response };
    if (this.request !== undefined) out.request = this.request;
    return out;
  }
}

/** `stream` as it is, read through `step`: the call ends when the stream does (an error part fails it), cancelled with it. */
function observed(stream: ReadableStream<Obj>, active: ActiveCall, step: StreamedStep): ReadableStream<Obj> {
  return readThrough(stream, {
    part: (value) => safely(() => step.note(value)),
    done: () => safely(() => (step.error !== undefined && step.result().finishReason === undefined ? active.fail(step.error) : active.succeed(step.result()))),
    failed: (err) => active.fail(err),
    cancelled: () => active.cancel(),
  });
}

/** The request `kind` of `model` recorded as a step of `operation`: its call starts in the operation's context, the request runs in the step's. */
function recordedRequest(model: Obj, kind: 'doGenerate' | 'doStream', operation: ActiveCall, stepName: string): Request {
  const request = model[kind] as Request;
  return async function recorded(params: Obj): Promise<Obj> {
    const state: AiCallState = {};
    const step = safely(() => {
      // the request as sent, less the settings left unset and what is not the request's (abort signal, headers)
      const sent: Obj = { model: modelOf(model).modelId };
      for (const [k, v] of Object.entries(params)) if (v !== undefined && k !== 'abortSignal' && k !== 'headers') sent[k] = v;
      return startedAiCall(runInContext(operation.ctx, startRecorded, defineAiStep(stepName, model, state), [sent]), state);
    });
    if (step === undefined) return request.call(model, params);
    const startedAtMs = Date.now();
    let r: Obj;
    try {
      r = await runInContext(step.ctx, () => request.call(model, params));
    } catch (err) {
      step.fail(err);
      throw err;
    }
    if (kind === 'doGenerate') {
      safely(() => step.succeed(generated(r)));
      return r;
    }
    const stream = r['stream'];
    if (!isObj(stream) || typeof stream['getReader'] !== 'function') {
      step.succeed(undefined);
      return r;
    }
    return { ...r, stream: observed(stream as unknown as ReadableStream<Obj>, step, new StreamedStep(state, startedAtMs, requestOf(r))) };
  };
}

/**
 * A view of `model` (an AI SDK language model object) whose `doGenerate` and `doStream` record each request as a
 * step of the operation `name` running as `operation` (ops of {@link STEP_OPS}); the model itself is not changed.
 * Anything else (a model id string, an operation without steps) is returned as is.
 */
export function steppedModel(model: unknown, name: string, operation: ActiveCall): unknown {
  const stepName = STEP_OPS[name];
  if (stepName === undefined || !isObj(model) || typeof model['doGenerate'] !== 'function' || typeof model['doStream'] !== 'function') return model;
  return Object.create(model, {
    doGenerate: { value: recordedRequest(model, 'doGenerate', operation, stepName) },
    doStream: { value: recordedRequest(model, 'doStream', operation, stepName) },
  }) as unknown;
}

/**
 * The caller's `prepareStep` (`undefined` when none) with the model a step returns also seen through
 * {@link steppedModel}, so a step on another model is recorded as well.
 */
export function steppedPrepare(prepare: unknown, name: string, operation: ActiveCall): unknown {
  if (typeof prepare !== 'function') return prepare;
  return async (...args: unknown[]): Promise<unknown> => {
    const r = (await (prepare as (...a: unknown[]) => unknown)(...args)) as unknown;
    return isObj(r) && r['model'] !== undefined ? { ...r, model: steppedModel(r['model'], name, operation) } : r;
  };
}
