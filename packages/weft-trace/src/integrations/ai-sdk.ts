/**
 * wrapAISDK(): traces the Vercel AI SDK's generateText, streamText, generateObject, streamObject and embed, with tool executions as child calls.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { runInContext } from '../instrument/context.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { op } from '../instrument/op.js';
import { runBody } from '../instrument/trace-call.js';
import { defineAiCall, markWrapped, startedAiCall, type AiCallState } from './ai-sdk-record.js';
import { steppedModel, steppedPrepare } from './ai-sdk-steps.js';
import { seenSoFar, watchStreamResult } from './ai-sdk-stream-end.js';
import { cachedModel } from './llm-cache/install.js';
import { llmCacheMayApply } from './llm-cache/mode.js';
import { startRecorded } from './start-recorded.js';
import { exchangeReporter } from './rollout-hook.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;

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

/** An AI SDK call's shared state: time to first token (from the call's start), and the rollout report. */
interface CallState extends AiCallState {
  startedAtMs: number;
}

/**
 * One AI SDK call's op definition (hooks that see its state), marked as wrapAISDK's once started; a streamed one folds
 * the chunks it sees (`onChunk`) into the output it records if it ends early (see `watchStreamResult`).
 */
function defineCall(name: string, options: Obj, streamed = false): { op: OpDefinition; state: CallState } {
  const state: CallState = { startedAtMs: 0 };
  const def = defineAiCall(name, options['model'], state);
  return { state, op: streamed ? { ...def, options: { ...def.options, streamReducer: seenSoFar } } : def };
}

/** Starts the call of `def` as op() would, marked as wrapAISDK's (see `claimWrapped`) and as a model call with steps. */
function startWrapped(def: OpDefinition, options: unknown, state: CallState): ActiveCall | undefined {
  const active = startedAiCall(startRecorded(def, [options]), state);
  if (active) markWrapped(active.call, def.name);
  return active;
}

/**
 * What the SDK is called with: `call` (the caller's options, the model maybe the LLM cache's view) with tool
 * executions traced, and the model (also one `prepareStep` returns) seen through `steppedModel`, so each step's
 * model request is a call of its own under `active`.
 */
function sentOptions(name: string, call: Obj, active: ActiveCall): Obj {
  const sent: Obj = { ...call, model: steppedModel(call['model'], name, active) };
  if ('tools' in call) sent['tools'] = tracedTools(call['tools']);
  if (typeof call['prepareStep'] === 'function') sent['prepareStep'] = steppedPrepare(call['prepareStep'], name, active);
  return sent;
}

/** Chains our callback before the caller's (whose result, e.g. a promise the SDK awaits, is returned). */
function before(own: (...a: unknown[]) => void, theirs: unknown): AnyFn {
  return (...a: unknown[]) => {
    own(...a);
    return typeof theirs === 'function' ? (theirs as AnyFn)(...a) : undefined;
  };
}

/** `options` with its model's requests going through the LLM cache (`llm-cache/install.ts`), when the model is a provider's. */
function withCachedModel(options: Obj): Obj {
  const model = cachedModel(options['model']);
  return model === options['model'] ? options : { ...options, model };
}

/** `generateText`, `generateObject`, `embed`: the call ends when the returned promise settles. */
function tracedPromise(name: string, fn: AnyFn, cache: boolean): AnyFn {
  return function traced(options: unknown, ...rest: unknown[]): unknown {
    if (options === null || typeof options !== 'object') return fn(options, ...rest);
    // the call records the caller's options (its model as given); the SDK gets the model whose requests the cache sees
    const o = options as Obj;
    const call = cache ? withCachedModel(o) : o;
    const { op: def, state } = defineCall(name, o);
    const active = startWrapped(def, o, state);
    if (!active) return fn(call, ...rest);
    if (active.ctx.rollout !== undefined) state.report = exchangeReporter(active.ctx.rollout, name, o);
    const sent = sentOptions(name, call, active);
    return runInContext(active.ctx, runBody, fn as AnyFn, undefined, [sent, ...rest], active);
  };
}

/**
 * `streamText`, `streamObject`: they return at once; the call ends in their `onFinish` (success),
 * `onError` (error) or `onAbort` (cancelled) callbacks, chained before the caller's own, else when the streams the
 * result hands out fail or are all cancelled (`watchStreamResult`: the SDK calls none of them then).
 */
function tracedStream(name: string, fn: AnyFn, cache: boolean): AnyFn {
  return function traced(options: unknown, ...rest: unknown[]): unknown {
    if (options === null || typeof options !== 'object') return fn(options, ...rest);
    const o = options as Obj;
    const call = cache ? withCachedModel(o) : o;
    const { op: def, state } = defineCall(name, o, true);
    const active = startWrapped(def, o, state);
    if (!active) return fn(call, ...rest);
    state.startedAtMs = active.call.startedAtMs;
    if (active.ctx.rollout !== undefined) state.report = exchangeReporter(active.ctx.rollout, name, o);
    const sent: Obj = {
      ...sentOptions(name, call, active),
      onChunk: before((event) => {
        state.ttft ??= Date.now() - state.startedAtMs;
        active.chunk((event as Obj | undefined)?.['chunk']);
      }, o['onChunk']),
      onFinish: before((event) => active.succeed(event), o['onFinish']),
      onError: before((event) => active.fail((event as Obj | undefined)?.['error'] ?? event), o['onError']),
      onAbort: before(() => active.cancel(), o['onAbort']),
    };
    if (name === 'ai.streamObject') delete sent['onChunk'];
    try {
      return watchStreamResult(runInContext(active.ctx, () => fn(sent, ...rest)), active);
    } catch (err) {
      active.fail(err);
      throw err;
    }
  };
}

const PROMISES = ['generateText', 'generateObject', 'embed', 'embedMany', 'generateImage', 'experimental_generateImage', 'generateSpeech', 'experimental_generateSpeech'] as const;
const STREAMS = ['streamText', 'streamObject'] as const;

/**
 * Returns the AI SDK module (`import * as ai from 'ai'`; tested with 6.x and 7.x) with `generateText`, `streamText`,
 * `generateObject`, `streamObject`, `embed`, `embedMany`, `generateImage` and `generateSpeech` (and their `experimental_`
 * names) traced as ops `ai.<name>`; everything else is the
 * module's own (wrapping twice traces once). Each call records its options (the model as its id, callbacks left out), the
 * result (text, object, tool calls and results, all steps' `messages` in order, finish reason; embeddings as their
 * dimensions; generated images and speech as media files, `images[i].data` and `audio.data`), and `summary.usage[model]` (see `aiSdkUsage`). For `generateText` and `streamText`, each step's model
 * request is a child call of its own (`ai.generateText.doGenerate`, `ai.streamText.doStream`, as the AI SDK's own
 * telemetry names them: the request's prompt, the reply's content, its usage with `requests: 1`), with the step's
 * tool executions (`ai.tool.<name>`) between them in start order; the operation then records no usage of its own
 * (its summary has its steps', merged up: each request counted once). Other operations (and a model given as an id
 * string, which weft cannot see the requests of) record the usage over all steps, `requests` = steps. Tool
 * `execute` functions run as child calls `ai.tool.<name>`. Streamed calls end in the SDK's `onFinish` /
 * `onError` / `onAbort` callbacks (the caller's own still run) and record `time_to_first_token_ms`.
 * On `ai` 7, `aiSDKTelemetry()` records the same calls without wrapping; with both, an operation called through the
 * wrapper is recorded once, by the wrapper. The `ai` package is not imported: weft works without it.
 * Recorded model calls: when `WEFT_LLM_CACHE` (or `CI`) is set at wrap time, a call's `model` of an `@ai-sdk/*`
 * provider is replaced by a view of it whose `config.fetch` is `llmCacheFetch()` over its own (the model itself is not
 * changed), so its requests are recorded or replayed and each step's model call (else the call) gets `summary.cache` (see `llmCacheFetch`).
 * @example const { generateText, streamText } = wrapAISDK(ai);
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core
 */
export function wrapAISDK<T extends object>(ai: T): T {
  const out: Obj = { ...(ai as Obj) };
  const src = ai as Obj;
  const cache = llmCacheMayApply();
  const untraced = (k: string): boolean => typeof src[k] === 'function' && !(src[k] as { [TRACED_FN]?: true })[TRACED_FN];
  for (const k of PROMISES) if (untraced(k)) out[k] = traced(tracedPromise(`ai.${k}`, src[k] as AnyFn, cache));
  for (const k of STREAMS) if (untraced(k)) out[k] = traced(tracedStream(`ai.${k}`, src[k] as AnyFn, cache));
  return out as T;
}

/** Marks the functions `wrapAISDK` returns (every copy of weft in the process reads it): a module holding them is wrapped no further. */
const TRACED_FN = Symbol.for('weft.tracedAiFunction');
const traced = (fn: AnyFn): AnyFn => Object.defineProperty(fn, TRACED_FN, { value: true });
