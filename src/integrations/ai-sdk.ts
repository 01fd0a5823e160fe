/**
 * wrapAISDK(): traces the Vercel AI SDK's generateText, streamText, generateObject, streamObject and embed, with tool executions as child calls.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { runInContext } from '../instrument/context.js';
import { InputKeys } from '../instrument/input-keys.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { op } from '../instrument/op.js';
import { runBody } from '../instrument/trace-call.js';
import { aiSdkUsage, usageByModel } from '../instrument/usage-model.js';
import { startRecorded } from './start-recorded.js';
import { exchangeReporter } from './rollout-hook.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;

const KEYS = new InputKeys(['options']);

/** `{provider, modelId}` of an AI SDK model (an object, or a gateway model id string). */
function modelOf(model: unknown): { provider?: string; modelId?: string } {
  if (typeof model === 'string') return { modelId: model };
  const m = (model ?? {}) as Obj;
  return { provider: typeof m['provider'] === 'string' ? m['provider'] : undefined, modelId: typeof m['modelId'] === 'string' ? m['modelId'] : undefined };
}

/** The recorded inputs: the options with the model as its id and the callbacks left out. */
function inputsOf(inputs: Obj): Obj {
  const o = { ...((inputs['options'] ?? {}) as Obj) };
  const model = modelOf(o['model']);
  if (model.modelId) o['model'] = model.provider ? `${model.provider}:${model.modelId}` : model.modelId;
  for (const k of Object.keys(o)) if (k.startsWith('on') || k.startsWith('experimental_on')) delete o[k];
  return o;
}

/** What a result (or an `onFinish` event) of a text or object call records: its getters read once. */
function outputOf(r: unknown): unknown {
  const o = (r ?? {}) as Obj;
  if ('embedding' in o || 'embeddings' in o) {
    const e = o['embedding'] ?? o['embeddings'];
    return { dimensions: Array.isArray(e) ? (Array.isArray(e[0]) ? (e[0] as unknown[]).length : e.length) : undefined };
  }
  const out: Obj = {};
  for (const k of ['text', 'object', 'reasoningText', 'toolCalls', 'toolResults', 'finishReason', 'error']) {
    const v = o[k];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  }
  return out;
}

/** Summary of a result: usage by the responding model (all steps; `requests` = steps), finish reason, time to first token. */
function summaryOf(r: unknown, requestModel: string | undefined, ttft: number | undefined): Obj {
  const o = (r ?? {}) as Obj;
  const response = (o['response'] ?? {}) as Obj;
  const model = typeof response['modelId'] === 'string' ? response['modelId'] : requestModel;
  const raw = (o['totalUsage'] ?? o['usage']) as Obj | undefined;
  const tokens = raw?.['tokens'];
  const usage =
    typeof tokens === 'number'
      ? { prompt_tokens: tokens, input_tokens: tokens, completion_tokens: 0, output_tokens: 0, total_tokens: tokens, requests: 1 }
      : aiSdkUsage(raw);
  const steps = o['steps'];
  if (usage && Array.isArray(steps) && steps.length > 0) usage.requests = steps.length;
  const extra: Obj = { usage: usageByModel(model, usage) };
  if (typeof o['finishReason'] === 'string') extra['gen_ai.response.finish_reasons'] = [o['finishReason']];
  if (typeof model === 'string') extra['gen_ai.response.model'] = model;
  if (typeof response['id'] === 'string') extra['gen_ai.response.id'] = response['id'];
  if (ttft !== undefined) extra['time_to_first_token_ms'] = ttft;
  return extra;
}

const toolOps = new WeakMap<Function, Function>();

/** The tools of `options` with each `execute` traced as op `ai.tool.<name>` (a child of the running call). */
function tracedTools(tools: unknown): unknown {
  if (tools === null || typeof tools !== 'object') return tools;
  const out: Obj = {};
  for (const [name, t] of Object.entries(tools as Obj)) {
    const execute = (t as Obj | null)?.['execute'];
    if (typeof execute !== 'function') {
      out[name] = t;
      continue;
    }
    let traced = toolOps.get(execute);
    if (!traced) {
      traced = op(execute as AnyFn, { name: `ai.tool.${name}`, parameterNames: ['input', 'options'], postprocessInputs: (i) => ({ input: i['input'] }) });
      toolOps.set(execute, traced);
    }
    out[name] = { ...(t as Obj), execute: traced };
  }
  return out;
}

/** What an AI SDK call's hooks share: time to first token, and the report to the rollout it runs in (`trajectory()`). */
interface CallState {
  ttft?: number;
  startedAtMs: number;
  report?: ((result: unknown) => void) | undefined;
}

/** One AI SDK call's op definition: hooks that see its state (time to first token). */
function defineCall(name: string, options: Obj): { op: OpDefinition; state: CallState } {
  const state: CallState = { startedAtMs: 0 };
  const { provider, modelId } = modelOf(options['model']);
  const attributes: Obj = { 'gen_ai.operation.name': name.includes('embed') ? 'embeddings' : 'chat' };
  if (provider) attributes['gen_ai.provider.name'] = provider.split('.')[0];
  if (modelId) attributes['gen_ai.request.model'] = modelId;
  return {
    state,
    op: {
      name,
      inputKeys: KEYS,
      options: { attributes, postprocessInputs: inputsOf, postprocessOutput: outputOf, summarize: (r) => (state.report?.(r), summaryOf(r, modelId, state.ttft)) },
    },
  };
}

/** Chains our callback before the caller's (whose result, e.g. a promise the SDK awaits, is returned). */
function before(own: (...a: unknown[]) => void, theirs: unknown): AnyFn {
  return (...a: unknown[]) => {
    own(...a);
    return typeof theirs === 'function' ? (theirs as AnyFn)(...a) : undefined;
  };
}

/** `generateText`, `generateObject`, `embed`: the call ends when the returned promise settles. */
function tracedPromise(name: string, fn: AnyFn): AnyFn {
  return function traced(options: unknown, ...rest: unknown[]): unknown {
    if (options === null || typeof options !== 'object') return fn(options, ...rest);
    const { op: def, state } = defineCall(name, options as Obj);
    const active = startRecorded(def, [options]);
    if (!active) return fn(options, ...rest);
    const o = options as Obj;
    if (active.ctx.rollout !== undefined) state.report = exchangeReporter(active.ctx.rollout, name, o);
    const sent = 'tools' in o ? { ...o, tools: tracedTools(o['tools']) } : o;
    return runInContext(active.ctx, runBody, fn as AnyFn, undefined, [sent, ...rest], active);
  };
}

/**
 * `streamText`, `streamObject`: they return at once; the call ends in their `onFinish` (success),
 * `onError` (error) or `onAbort` (cancelled) callbacks, chained before the caller's own.
 */
function tracedStream(name: string, fn: AnyFn): AnyFn {
  return function traced(options: unknown, ...rest: unknown[]): unknown {
    if (options === null || typeof options !== 'object') return fn(options, ...rest);
    const { op: def, state } = defineCall(name, options as Obj);
    const active: ActiveCall | undefined = startRecorded(def, [options]);
    if (!active) return fn(options, ...rest);
    state.startedAtMs = active.call.startedAtMs;
    const o = options as Obj;
    if (active.ctx.rollout !== undefined) state.report = exchangeReporter(active.ctx.rollout, name, o);
    const sent: Obj = {
      ...o,
      onChunk: before(() => (state.ttft ??= Date.now() - state.startedAtMs), o['onChunk']),
      onFinish: before((event) => active.succeed(event), o['onFinish']),
      onError: before((event) => active.fail((event as Obj | undefined)?.['error'] ?? event), o['onError']),
      onAbort: before(() => active.cancel(), o['onAbort']),
    };
    if ('tools' in o) sent['tools'] = tracedTools(o['tools']);
    if (name === 'ai.streamObject') delete sent['onChunk'];
    try {
      return runInContext(active.ctx, () => fn(sent, ...rest));
    } catch (err) {
      active.fail(err);
      throw err;
    }
  };
}

const PROMISES = ['generateText', 'generateObject', 'embed', 'embedMany'] as const;
const STREAMS = ['streamText', 'streamObject'] as const;

/**
 * Returns the AI SDK module (`import * as ai from 'ai'`, version 6) with `generateText`, `streamText`,
 * `generateObject`, `streamObject`, `embed` and `embedMany` traced as ops `ai.<name>`; everything else is the
 * module's own. Each call records its options (the model as its id, callbacks left out), the
 * result (text, object, tool calls and results, finish reason; embeddings as their dimensions), and
 * `summary.usage[model]` over all steps (see `aiSdkUsage`), with `requests` = the number of steps. Tool
 * `execute` functions run as child calls `ai.tool.<name>`. Streamed calls end in the SDK's `onFinish` /
 * `onError` / `onAbort` callbacks (the caller's own still run) and record `time_to_first_token_ms`.
 * The `ai` package is not imported: weft works without it.
 * @example const { generateText, streamText } = wrapAISDK(ai);
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core
 */
export function wrapAISDK<T extends object>(ai: T): T {
  const out: Obj = { ...(ai as Obj) };
  const src = ai as Obj;
  for (const k of PROMISES) if (typeof src[k] === 'function') out[k] = tracedPromise(`ai.${k}`, src[k] as AnyFn);
  for (const k of STREAMS) if (typeof src[k] === 'function') out[k] = tracedStream(`ai.${k}`, src[k] as AnyFn);
  return out as T;
}
