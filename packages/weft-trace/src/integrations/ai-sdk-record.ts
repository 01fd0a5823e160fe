/**
 * What a Vercel AI SDK operation and each of its steps' model requests record, whichever route sees them (wrapAISDK or the `ai` 7 telemetry integration): op definitions, inputs, output and summary, and the rules that record each once.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import type { Call } from '../instrument/call.js';
import { InputKeys } from '../instrument/input-keys.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { aiSdkUsage, usageByModel } from '../instrument/usage-model.js';
import { weftMedia } from '../instrument/media-value.js';
import { countedByProvider, markFrameworkModelCall } from './model-request-once.js';
import { aiModelRequestPath, URL_PATH_ATTRIBUTE } from './request-facts.js';

type Obj = Record<string, unknown>;

const KEYS = new InputKeys(['options']);

/** `{provider, modelId}` of an AI SDK model (an object, or a gateway model id string). */
export function modelOf(model: unknown): { provider?: string; modelId?: string } {
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

/**
 * What a result (or an `onFinish` / telemetry `onEnd` event) of a text or object call records: its getters read once.
 * `messages` are the messages of all steps in order (`responseMessages` in `ai` 7, `response.messages` in 6: the
 * assistant's tool calls, the tool results, the answer), from which the chat view draws the whole conversation.
 */
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
  const messages = o['responseMessages'] ?? ((o['response'] ?? {}) as Obj)['messages'];
  if (Array.isArray(messages) && messages.length > 0) out['messages'] = messages;
  if (Array.isArray(o['images'])) out['images'] = o['images'].map(generatedFile);
  if (o['audio'] !== null && typeof o['audio'] === 'object') out['audio'] = generatedFile(o['audio']);
  return out;
}

/**
 * A file `generateImage` or `generateSpeech` returned (`GeneratedFile`: `mediaType`, its bytes behind getters) as
 * recorded: its media type and format, and its bytes as media (a file of the project, `weftMedia`).
 */
function generatedFile(file: unknown): unknown {
  const f = (file ?? {}) as Obj;
  const bytes = f['uint8Array']; // a getter: the provider's base64 decoded once
  if (!(bytes instanceof Uint8Array)) return file;
  const mediaType = typeof f['mediaType'] === 'string' ? f['mediaType'] : undefined;
  return { mediaType, ...(typeof f['format'] === 'string' ? { format: f['format'] } : {}), data: weftMedia(bytes, mediaType) };
}

/**
 * What a step's model request records: the reply's content parts (text, reasoning, tool calls; empty text left out),
 * finish reason, and the provider's HTTP request body (`request.body`, as the provider reports it) when it tells one.
 */
function stepOutputOf(r: unknown): unknown {
  const o = (r ?? {}) as Obj;
  const content = Array.isArray(o['content']) ? o['content'].filter((p) => (p as Obj | null)?.['text'] !== '') : o['content'];
  const out: Obj = { content, finishReason: o['finishReason'] };
  if (o['request'] !== undefined) out['request'] = o['request'];
  return out;
}

/**
 * Summary of a result: usage by the responding model (all steps; `requests` = steps), the `gen_ai.response.*` facts
 * (finish reason, model, id) and time to first token. When its model requests are recorded as calls of their own
 * (`counted`: the steps' calls, or a wrapped client's under a step), those are the model calls: they hold the usage
 * (merged up) and the model and id of their responses, and this call, a model run and not a request, records none of
 * them (its finish reason stays): it keeps the responding model as `ai.response.model` (the AI SDK's own telemetry
 * name), which does not make it a model call where the viewer or a query looks for `gen_ai.response.model`.
 */
function summaryOf(r: unknown, requestModel: string | undefined, ttft: number | undefined, counted: boolean): Obj {
  const o = (r ?? {}) as Obj;
  const response = (o['response'] ?? {}) as Obj;
  const responseModel = typeof response['modelId'] === 'string' ? response['modelId'] : undefined;
  if (counted) return runSummary(responseModel, o['finishReason'], ttft);
  const model = responseModel ?? requestModel;
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

/**
 * The summary of a model run whose requests are model calls of their own (see {@link summaryOf}): how it ended (as
 * the AI SDK's own telemetry tells it of its operation span), the model that answered, when known.
 */
function runSummary(model: string | undefined, finishReason: unknown, ttft: number | undefined): Obj {
  const extra: Obj = {};
  if (typeof finishReason === 'string') extra['gen_ai.response.finish_reasons'] = [finishReason];
  if (typeof model === 'string') extra['ai.response.model'] = model;
  if (ttft !== undefined) extra['time_to_first_token_ms'] = ttft;
  return extra;
}

/**
 * What an AI SDK call's hooks share: time to first token, the report to the rollout it runs in (`trajectory()`), and
 * the call itself once started (see {@link startedAiCall}).
 */
export interface AiCallState {
  ttft?: number;
  report?: ((result: unknown) => void) | undefined;
  call?: Call;
}

/** Whether the call of `state` had model requests recorded under it (its steps'), which then hold the usage. */
const counted = (state: AiCallState): boolean => state.call !== undefined && countedByProvider(state.call);

/** The attributes of an AI SDK call on `model`: `gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`. */
function attributesOf(name: string, provider: string | undefined, modelId: string | undefined): Obj {
  const attributes: Obj = { 'gen_ai.operation.name': name.includes('embed') ? 'embeddings' : 'chat' };
  if (provider) attributes['gen_ai.provider.name'] = provider.split('.')[0];
  if (modelId) attributes['gen_ai.request.model'] = modelId;
  return attributes;
}

/**
 * The op of one AI SDK operation `name` (`ai.generateText`, ...) on `model` (a model object or id), recording
 * `[options]`: attributes `gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`; hooks that read
 * `state` when the call ends.
 */
export function defineAiCall(name: string, model: unknown, state: AiCallState): OpDefinition {
  const { provider, modelId } = modelOf(model);
  const summarize = (r: unknown): Obj => (state.report?.(r), summaryOf(r, modelId, state.ttft, counted(state)));
  return { name, inputKeys: KEYS, options: { attributes: attributesOf(name, provider, modelId), postprocessInputs: inputsOf, postprocessOutput: outputOf, summarize } };
}

/**
 * The operations whose steps' model requests are recorded as calls of their own, and the op of those calls: the
 * names of the AI SDK's own telemetry spans.
 */
export const STEP_OPS: Readonly<Record<string, string>> = { 'ai.generateText': 'ai.generateText.doGenerate', 'ai.streamText': 'ai.streamText.doStream' };

/**
 * One step's model request, as both routes tell it (normalized to `ai`'s own shapes): the reply's content parts (a
 * tool call's `input` parsed), the unified finish reason, the usage as `LanguageModelUsage`, the response's id and model.
 */
export interface AiStepResult {
  content: unknown[];
  /**
   * The HTTP request body the provider sent (`request.body` of its `doGenerate` / `doStream` result, the AI SDK's
   * `step.request.body`), kept by reference: what `weft calls cassette` rebuilds the request from. Absent when the
   * provider tells none.
   */
  request?: { body: unknown };
  finishReason?: string;
  usage?: unknown;
  response: { id?: string; modelId?: string };
}

/**
 * The op of the model request `name` (see {@link STEP_OPS}) of one step on `model`, recording `[options]` (the
 * request as the step sent it: model, prompt or messages, tools, settings) and ending with an {@link AiStepResult}:
 * the reply's content, and the request's usage by the responding model (`requests: 1`), unless a wrapped request
 * under it recorded its own. Attribute `url.path`: the request's URL path, for a provider API whose requests
 * `weft calls cassette` rebuilds (see `aiModelRequestPath`). Marked as a model call a provider wrapper may see too (`model-request-once.ts`).
 */
export function defineAiStep(name: string, model: unknown, state: AiCallState): OpDefinition {
  const { provider, modelId } = modelOf(model);
  const summarize = (r: unknown): Obj => summaryOf(r, modelId, state.ttft, counted(state));
  const attributes = attributesOf(name, provider, modelId);
  const urlPath = aiModelRequestPath(model);
  if (urlPath !== undefined) attributes[URL_PATH_ATTRIBUTE] = urlPath;
  return { name, inputKeys: KEYS, options: { attributes, postprocessInputs: inputsOf, postprocessOutput: stepOutputOf, summarize } };
}

/**
 * Notes that `active` records an AI SDK operation or step of `state`: it is a model call whose requests may be
 * recorded under it (its steps', or a wrapped client's), in which case those hold the usage and it records none
 * (the one rule of `model-request-once.ts`). Returns `active`.
 */
export function startedAiCall(active: ActiveCall | undefined, state: AiCallState): ActiveCall | undefined {
  if (active === undefined) return undefined;
  markFrameworkModelCall(active.call);
  state.call = active.call;
  return active;
}

/** The operations wrapAISDK is recording whose telemetry `onStart` has not been seen yet (see {@link claimWrapped}). */
const wrapped = new WeakMap<Call, string>();

/** Marks `call` as wrapAISDK's recording of the operation `name`. */
export function markWrapped(call: Call, name: string): void {
  wrapped.set(call, name);
}

/**
 * The rule that records an AI SDK operation once when both routes see it: wrapAISDK starts its call first (the
 * operation then runs in that call's context), so the telemetry integration's `onStart` of an operation `name`
 * whose current call is wrapAISDK's unclaimed call of the same name is that call's own operation: it claims it and
 * the integration records nothing for it (its tools are wrapAISDK's too). A later operation run inside it (in a
 * tool, say) finds it claimed and is recorded as usual.
 */
export function claimWrapped(current: Call | undefined, name: string): boolean {
  if (current === undefined || wrapped.get(current) !== name) return false;
  wrapped.delete(current);
  return true;
}
