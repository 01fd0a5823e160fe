/**
 * A stored model call (a wrapper's request: OpenAI, Anthropic, an AI SDK step) back to the cassette line of its HTTP exchange: the request rebuilt as the SDK sent it, keyed as `llmCacheFetch` keys it, and the answer as it replays.
 * @module
 */
import { REDACTED } from '../../instrument/redact.js';
import { MASK_FAILED } from '../../instrument/capture.js';
import { UNDEFINED_KEYS_ATTRIBUTE, URL_PATH_ATTRIBUTE } from '../request-facts.js';
import { SIZE_LIMIT_MARK, TRUNCATED_KEY, TRUNCATED_KEYS_KEY } from '../../internal/truncation.js';
import type { TokenUsage } from '../../instrument/usage-model.js';
import type { CassetteEntry, RecordedResponse } from './cassette.js';
import { normalizeRequest, requestKey } from './key.js';
import { chatCompletionOfStep, openAIUsageOf } from './reply-ai-sdk.js';
import { messageEvents } from './stream-anthropic.js';
import { chatCompletionEvents, responseEvents } from './stream-openai.js';

type Obj = Record<string, unknown>;

/** The fields of a stored call (`CallRecord`) a cassette line is rebuilt from. */
export interface StoredModelCall {
  id: string;
  op_name: string;
  started_at: string;
  ended_at?: string | null | undefined;
  inputs?: Obj | null | undefined;
  output?: unknown;
  attributes?: Obj | null | undefined;
  summary?: Obj | null | undefined;
  exception?: unknown;
}

/** A model call's cassette line, or why it has none. */
export type CallExchange = { entry: CassetteEntry } | { reason: string };

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The request a call's inputs and output say was sent, and the answer to replay for it. */
interface Rebuilt {
  path: string;
  body: unknown;
  response: RecordedResponse;
}

/** How one wrapper's op is rebuilt: the request path when the call records none (`url.path`), and the rebuild. */
interface OpRebuild {
  defaultPath?: string;
  rebuild(call: StoredModelCall, path: string): Rebuilt | string;
}

/** The headers a replayed answer carries: its content type and the provider's request id (`summary.request_id`). */
function headersOf(call: StoredModelCall, stream: boolean): Record<string, string> {
  const h: Record<string, string> = { 'content-type': stream ? 'text/event-stream' : 'application/json' };
  const id = call.summary?.['request_id'];
  if (typeof id === 'string') h['x-request-id'] = h['request-id'] = id;
  return h;
}

/** The one usage record of a call's `summary.usage` (its own request's), as weft recorded it. */
function ownUsage(call: StoredModelCall): Partial<TokenUsage> | undefined {
  const usage = call.summary?.['usage'];
  const records = isObj(usage) ? Object.values(usage) : [];
  return records.length === 1 && isObj(records[0]) ? (records[0] as Partial<TokenUsage>) : undefined;
}

function answer(call: StoredModelCall, stream: boolean, events: () => string[]): RecordedResponse {
  return stream ? { status: 200, headers: headersOf(call, true), events: events() } : { status: 200, headers: headersOf(call, false), json: call.output };
}

/**
 * The caller's body of a wrapper's call (its recorded inputs are the body), without the keys that were `undefined`
 * (recorded as `null`, listed in the attribute `weft.request.undefined_keys`), which the SDK's JSON left out.
 */
function bodyOf(call: StoredModelCall): Obj {
  const body = { ...(call.inputs ?? {}) };
  const unset = call.attributes?.[UNDEFINED_KEYS_ATTRIBUTE];
  if (Array.isArray(unset)) for (const k of unset) if (typeof k === 'string') delete body[k];
  return body;
}

const OPENAI_CHAT: OpRebuild = {
  defaultPath: '/v1/chat/completions',
  rebuild(call, path) {
    const body = bodyOf(call);
    const stream = body['stream'] === true;
    // wrapOpenAI asks a stream for its usage (see askForStreamUsage in openai.ts): the request sent carried it
    const opts = isObj(body['stream_options']) ? body['stream_options'] : undefined;
    if (stream && opts?.['include_usage'] !== true) body['stream_options'] = { ...opts, include_usage: true };
    const out = call.output as Obj;
    return { path, body, response: answer(call, stream, () => chatCompletionEvents(out, out['usage'] ?? openAIUsageOf(ownUsage(call)))) };
  },
};

const OPENAI_RESPONSES: OpRebuild = {
  defaultPath: '/v1/responses',
  rebuild(call, path) {
    const body = bodyOf(call);
    return { path, body, response: answer(call, body['stream'] === true, () => responseEvents(call.output as Obj)) };
  },
};

const ANTHROPIC_MESSAGES: OpRebuild = {
  defaultPath: '/v1/messages',
  rebuild(call, path) {
    // the SDK sends these two as headers, not in the body (messages.create of @anthropic-ai/sdk)
    const { user_profile_id: _u, workspace_id: _w, ...body } = bodyOf(call);
    return { path, body, response: answer(call, body['stream'] === true, () => messageEvents(call.output as Obj)) };
  },
};

/** An AI SDK step on a Chat Completions model (`@ai-sdk/openai`'s `.chat()`): the provider's body (`output.request.body`) and a completion rebuilt from the reply. */
const AI_SDK_STEP: OpRebuild = {
  rebuild(call, path) {
    if (!path.endsWith('/chat/completions')) return `its provider API (${path}) is not one weft rebuilds answers of yet (only Chat Completions, @ai-sdk/openai's .chat() models)`;
    const out = (isObj(call.output) ? call.output : {}) as Obj;
    const request = isObj(out['request']) ? out['request'] : undefined;
    let body = request?.['body'];
    if (typeof body === 'string') body = JSON.parse(body) as unknown;
    if (!isObj(body)) return 'the step recorded no provider request body (output.request.body): it was recorded by a weft-trace older than `weft calls cassette`, or its provider tells none';
    const s = call.summary ?? {};
    const model = s['gen_ai.response.model'] ?? body['model'];
    const completion = chatCompletionOfStep({
      content: Array.isArray(out['content']) ? out['content'] : [],
      finishReason: out['finishReason'],
      id: typeof s['gen_ai.response.id'] === 'string' ? s['gen_ai.response.id'] : undefined,
      model: typeof model === 'string' ? model : '',
      created: Math.floor(Date.parse(call.started_at) / 1000),
      usage: openAIUsageOf(ownUsage(call)),
    });
    const stream = body['stream'] === true;
    return { path, body, response: stream ? { status: 200, headers: headersOf(call, true), events: chatCompletionEvents(completion, completion['usage']) } : { status: 200, headers: headersOf(call, false), json: completion } };
  },
};

/** The model-request ops `weft calls cassette` reads, by op name. */
const OPS: Readonly<Record<string, OpRebuild>> = {
  'openai.chat.completions.create': OPENAI_CHAT,
  'openai.chat.completions.stream': OPENAI_CHAT,
  'openai.responses.create': OPENAI_RESPONSES,
  'openai.responses.stream': OPENAI_RESPONSES,
  'anthropic.messages.create': ANTHROPIC_MESSAGES,
  'anthropic.messages.stream': ANTHROPIC_MESSAGES,
  'ai.generateText.doGenerate': AI_SDK_STEP,
  'ai.streamText.doStream': AI_SDK_STEP,
};

/** Model-request ops weft records but cannot turn into a cassette line, and why. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  'openai.embeddings.create': 'an embeddings call records the vectors\' dimensions, not the vectors',
};

/** Where `value` holds what weft cut or hid when it recorded it (a truncation mark, a redacted or unmasked value): a path and the mark. */
function cutIn(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') {
    if (value === REDACTED || value === MASK_FAILED || value === SIZE_LIMIT_MARK) return `${at} is ${JSON.stringify(value)}`;
    return /…\[truncated \d+ chars\]$|^\[truncated \d+ (items|keys|chunks)\]$/.test(value) ? `${at} ends in ${JSON.stringify(value.slice(value.lastIndexOf('[')))}` : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = cutIn(v, `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObj(value)) return undefined;
  if (TRUNCATED_KEY in value || TRUNCATED_KEYS_KEY in value) return `${at} was cut to a size limit`;
  for (const [k, v] of Object.entries(value)) {
    const found = cutIn(v, `${at}.${k}`);
    if (found) return found;
  }
  return undefined;
}

/** Why `call` has no answer to replay, or `undefined` when it has one. */
function unanswered(call: StoredModelCall): string | undefined {
  if (!call.ended_at) return 'the call has not ended: no answer was recorded';
  if (call.exception != null) {
    const e = call.exception;
    const message = typeof e === 'string' ? e : isObj(e) ? `${String(e['type'] ?? 'Error')}: ${String(e['message'] ?? '')}` : 'an error';
    return `the call failed (${message.split('\n')[0]}): a cassette replays answers, and the error's HTTP response was not recorded`;
  }
  if (call.summary?.['status'] === 'cancelled') return 'the call was cancelled: only part of its answer was recorded';
  if (!isObj(call.output)) return 'the call recorded no answer (output)';
  return undefined;
}

/** Whether weft reads `op` as a model request (`weft calls cassette` reports the ones it cannot write). */
export function isModelRequestOp(op: string): boolean {
  return op in OPS || op in UNSUPPORTED;
}

/**
 * The cassette line of `call`, a model request recorded by `wrapOpenAI`, `wrapAnthropic` or `wrapAISDK` (ops
 * `openai.chat.completions.create|stream`, `openai.responses.create|stream`, `anthropic.messages.create|stream`,
 * `ai.generateText.doGenerate`, `ai.streamText.doStream`), in `WEFT_LLM_CACHE`'s format: the request rebuilt as the
 * SDK sent it (the recorded body, with what the wrapper or SDK changes on the way: `stream_options.include_usage` of
 * an OpenAI chat stream, Anthropic's header-only fields; the path from `url.path`, else the provider's default) and
 * keyed as `llmCacheFetch` keys it; the answer as recorded (a JSON body), or for a stream, the events of the
 * recorded (folded) answer, one per part (the same answer, in fewer chunks than the provider sent). `undefined` for
 * a call that is not a model request; `{reason}` for one that cannot be rebuilt exactly: not ended, failed,
 * cancelled, inputs or output cut or redacted when recorded, an op or provider API weft cannot rebuild.
 */
export function exchangeOfCall(call: StoredModelCall): CallExchange | undefined {
  const op = OPS[call.op_name];
  if (op === undefined) return call.op_name in UNSUPPORTED ? { reason: UNSUPPORTED[call.op_name]! } : undefined;
  const missing = unanswered(call);
  if (missing) return { reason: missing };
  const urlPath = call.attributes?.[URL_PATH_ATTRIBUTE];
  const path = typeof urlPath === 'string' ? urlPath : op.defaultPath;
  if (path === undefined) return { reason: 'the call records no url.path (it was recorded by a weft-trace older than `weft calls cassette`, or its provider API is not one weft rebuilds)' };
  let rebuilt: Rebuilt | string;
  try {
    rebuilt = op.rebuild(call, path);
  } catch (err) {
    return { reason: `its recorded request could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
  if (typeof rebuilt === 'string') return { reason: rebuilt };
  const cut = cutIn(rebuilt.body, 'request body') ?? cutIn(call.output, 'output');
  if (cut) return { reason: `what it sent or got was cut or hidden when recorded (${cut}), so the exact request or answer cannot be rebuilt` };
  const request = normalizeRequest('POST', rebuilt.path, JSON.stringify(rebuilt.body));
  const key = requestKey(request);
  if (key === undefined) return { reason: 'this runtime has no node:crypto to key the request' };
  return { entry: { key, request, response: rebuilt.response } };
}
