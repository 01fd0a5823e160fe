/**
 * The precedence table: which OTel span attributes, of which convention, become a call's inputs, output, model and usage.
 * @module
 */
import {
  indexedMessages, messagesFrom, parseJson, requestMessages, responseMessages, vercelPromptMessages,
  type Attrs, type ChatMessage,
} from './genai-messages.js';

/** The attribute conventions the table reads. */
export type Convention = 'gen_ai' | 'gen_ai_legacy' | 'openinference' | 'openllmetry' | 'vercel_ai';

/** Token counts of one span, in tokens, under weft's usage field names. */
export interface SpanUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  /** 1 on a span that is one model request by its convention (see {@link isOneRequest}); else left out. */
  requests?: number;
}

/** What the table makes of a span's attributes. */
export interface MappedAttributes {
  /** The call's `inputs`: `{messages}` for chat spans, else the parsed input of the convention; `{}` when none. */
  inputs: Record<string, unknown>;
  /** The call's `output`: `{messages}` for chat spans, else the parsed output; `undefined` when none. */
  output: unknown;
  /** The model usage is keyed by (response model first, then request model); `undefined` when none is named. */
  model: string | undefined;
  /** Token counts; `undefined` when the span has none. */
  usage: SpanUsage | undefined;
  /**
   * Facts of the response, known only when the span ends, for the call's `summary` under their OpenTelemetry
   * GenAI names (where the wrappers record them too): `gen_ai.response.model`, `gen_ai.response.id` (strings)
   * and `gen_ai.response.finish_reasons` (string[]); from the `gen_ai.response.*` attributes, else the Vercel AI
   * SDK's `ai.response.model` / `ai.response.id` / `ai.response.finishReason`. Empty when the span has none.
   */
  response: Record<string, unknown>;
  /**
   * The span's attributes less those read into `inputs` and `output` and the `gen_ai.response.*` ones (in
   * `response`); all are kept whole under `otel_dump`.
   */
  attributes: Record<string, unknown>;
  /** Conventions whose attributes were used, in table order (for tests and diagnostics). */
  conventions: Convention[];
}

/** One source of a field: its convention and how to read it; `read` returns `undefined` when the span lacks it. */
interface Source<T> {
  convention: Convention;
  /** Attribute keys the source consumes (left out of `attributes` when it wins); prefixes end with `.`. */
  keys: readonly string[];
  read: (attrs: Attrs, consumed: Set<string>) => T | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const asMessages = (messages: ChatMessage[] | undefined): { messages: ChatMessage[] } | undefined => (messages ? { messages } : undefined);
/** A parsed input value as an inputs object: objects as they are (with messages normalized), anything else under `input`. */
function inputsOf(value: unknown, anyJson = false): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = parseJson(value, anyJson);
  if (!isObject(parsed)) return { input: parsed };
  const messages = requestMessages(parsed);
  return messages ? { ...parsed, messages } : parsed;
}
function outputOf(value: unknown, anyJson = false): unknown {
  if (value === undefined || value === null) return undefined;
  const parsed = parseJson(value, anyJson);
  return asMessages(responseMessages(parsed)) ?? parsed;
}
const key = (k: string) => (a: Attrs): unknown => a[k];
const num = (...keys: string[]) => (a: Attrs): number | undefined => {
  for (const k of keys) {
    const v = a[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  }
  return undefined;
};
const str = (...keys: string[]) => (a: Attrs): string | undefined => {
  for (const k of keys) if (typeof a[k] === 'string' && a[k] !== '') return a[k];
  return undefined;
};

/**
 * `inputs`, first source present wins. Sources: OTel GenAI semantic conventions (current: `gen_ai.input.messages`,
 * `gen_ai.system_instructions`; before v1.37: `gen_ai.prompt.N.*`, also what OpenLLMetry's LLM spans write),
 * OpenInference (`llm.input_messages.N.message.*`, `input.value`), OpenLLMetry (`traceloop.entity.input`) and
 * the Vercel AI SDK (`ai.prompt.messages` on `doGenerate` spans, `ai.prompt` on the outer ones).
 */
const INPUTS: readonly Source<Record<string, unknown>>[] = [
  { convention: 'gen_ai', keys: ['gen_ai.input.messages', 'gen_ai.system_instructions'], read: (a) => {
    const messages = messagesFrom(a['gen_ai.input.messages']);
    if (!messages) return undefined;
    const system = parseJson(a['gen_ai.system_instructions']);
    return system === undefined ? { messages } : { messages, system_instructions: system };
  } },
  { convention: 'openinference', keys: [], read: (a, c) => asMessages(indexedMessages(a, 'llm.input_messages', 'message.', c)) },
  { convention: 'openinference', keys: ['input.value', 'input.mime_type'], read: (a) => inputsOf(a['input.value']) },
  { convention: 'openllmetry', keys: ['traceloop.entity.input'], read: (a) => inputsOf(a['traceloop.entity.input'], true) },
  { convention: 'vercel_ai', keys: ['ai.prompt.messages'], read: (a) => asMessages(messagesFrom(a['ai.prompt.messages'])) },
  { convention: 'vercel_ai', keys: ['ai.prompt'], read: (a) => asMessages(vercelPromptMessages(a['ai.prompt'])) },
  { convention: 'gen_ai_legacy', keys: [], read: (a, c) => asMessages(indexedMessages(a, 'gen_ai.prompt', '', c)) },
];

/** `output`, first source present wins; the same conventions as {@link INPUTS}. */
const OUTPUT: readonly Source<unknown>[] = [
  { convention: 'gen_ai', keys: ['gen_ai.output.messages'], read: (a) => asMessages(messagesFrom(a['gen_ai.output.messages'])) },
  { convention: 'openinference', keys: [], read: (a, c) => asMessages(indexedMessages(a, 'llm.output_messages', 'message.', c)) },
  { convention: 'openinference', keys: ['output.value', 'output.mime_type'], read: (a) => outputOf(a['output.value']) },
  { convention: 'openllmetry', keys: ['traceloop.entity.output'], read: (a) => outputOf(a['traceloop.entity.output'], true) },
  { convention: 'vercel_ai', keys: ['ai.response.text', 'ai.response.toolCalls'], read: (a) => {
    const text = a['ai.response.text'];
    const calls = parseJson(a['ai.response.toolCalls']);
    if (typeof text !== 'string' && !Array.isArray(calls)) return undefined;
    const msg: ChatMessage = { role: 'assistant' };
    if (typeof text === 'string') msg.content = text;
    if (Array.isArray(calls)) msg.tool_calls = calls;
    const finish = a['ai.response.finishReason'];
    if (typeof finish === 'string') msg.finish_reason = finish;
    return { messages: [msg] };
  } },
  { convention: 'vercel_ai', keys: ['ai.response.object'], read: (a) => (a['ai.response.object'] === undefined ? undefined : parseJson(a['ai.response.object'])) },
  { convention: 'gen_ai_legacy', keys: [], read: (a, c) => asMessages(indexedMessages(a, 'gen_ai.completion', '', c)) },
];

/** The model, response before request; each convention's name for it. */
const MODEL: readonly Source<string>[] = [
  { convention: 'gen_ai', keys: [], read: str('gen_ai.response.model', 'gen_ai.request.model') },
  { convention: 'openinference', keys: [], read: str('llm.model_name') },
  { convention: 'vercel_ai', keys: [], read: str('ai.response.model', 'ai.model.id') },
];

/** Prompt (input) tokens: GenAI current, GenAI before v1.27 (and OpenLLMetry), OpenInference, the Vercel AI SDK (v5+, then v4). */
const PROMPT_TOKENS: readonly Source<number>[] = [
  { convention: 'gen_ai', keys: [], read: num('gen_ai.usage.input_tokens') },
  { convention: 'gen_ai_legacy', keys: [], read: num('gen_ai.usage.prompt_tokens') },
  { convention: 'openinference', keys: [], read: num('llm.token_count.prompt') },
  { convention: 'vercel_ai', keys: [], read: num('ai.usage.inputTokens', 'ai.usage.promptTokens') },
];
const COMPLETION_TOKENS: readonly Source<number>[] = [
  { convention: 'gen_ai', keys: [], read: num('gen_ai.usage.output_tokens') },
  { convention: 'gen_ai_legacy', keys: [], read: num('gen_ai.usage.completion_tokens') },
  { convention: 'openinference', keys: [], read: num('llm.token_count.completion') },
  { convention: 'vercel_ai', keys: [], read: num('ai.usage.outputTokens', 'ai.usage.completionTokens') },
];
/** Totals where the convention records one; else prompt + completion. */
const TOTAL_TOKENS: readonly Source<number>[] = [
  { convention: 'openllmetry', keys: [], read: num('llm.usage.total_tokens') },
  { convention: 'openinference', keys: [], read: num('llm.token_count.total') },
  { convention: 'vercel_ai', keys: [], read: num('ai.usage.totalTokens') },
];

/**
 * The summary fields of {@link MappedAttributes.response}: a call's attributes go out with its start (service
 * interface, `StartedCallSchemaForInsert`), so what is known only at the end is summary in both routes.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ (`gen_ai.response.*`)
 */
export const RESPONSE_KEYS = ['gen_ai.response.model', 'gen_ai.response.id', 'gen_ai.response.finish_reasons'] as const;

function strings(v: unknown): string[] | undefined {
  if (typeof v === 'string') return v === '' ? undefined : [v];
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((x): x is string => typeof x === 'string');
  return out.length > 0 ? out : undefined;
}

/** The response facts of a span (see {@link MappedAttributes.response}). */
function responseFields(a: Attrs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const model = a['gen_ai.response.model'] ?? a['ai.response.model'];
  if (typeof model === 'string' && model !== '') out['gen_ai.response.model'] = model;
  const id = a['gen_ai.response.id'] ?? a['ai.response.id'];
  if (typeof id === 'string' && id !== '') out['gen_ai.response.id'] = id;
  const reasons = strings(a['gen_ai.response.finish_reasons']) ?? strings(a['ai.response.finishReason']);
  if (reasons) out['gen_ai.response.finish_reasons'] = reasons;
  return out;
}

/**
 * Whether a span's usage is one model request's: the Vercel AI SDK's request spans (`ai.operationId`
 * `ai.generateText.doGenerate`, `ai.streamText.doStream`, `ai.generateObject.doGenerate`, ...), one per step, so a
 * trace's `requests` (which the overview counts) agree with the wrappers'. The operation spans above them are not.
 */
function isOneRequest(a: Attrs): boolean {
  const id = a['ai.operationId'];
  return typeof id === 'string' && /^ai\.\w+\.do(Generate|Stream)$/.test(id);
}

/** The first source of `sources` that reads a value; its keys (and those it reports) go into `consumed`. */
function first<T>(sources: readonly Source<T>[], attrs: Attrs, used: Set<Convention>, consumed?: Set<string>): T | undefined {
  for (const s of sources) {
    const keys = new Set<string>();
    const value = s.read(attrs, keys);
    if (value === undefined) continue;
    used.add(s.convention);
    if (consumed) for (const k of [...s.keys, ...keys]) consumed.add(k);
    return value;
  }
  return undefined;
}

/**
 * Maps a span's attributes by the precedence table: for each field the first source present wins (the order
 * of each list above), so a span carrying two conventions gets the newer GenAI one. Never throws on odd values.
 */
export function mapAttributes(attrs: Attrs): MappedAttributes {
  const used = new Set<Convention>();
  const consumed = new Set<string>();
  const inputs = first(INPUTS, attrs, used, consumed) ?? {};
  const output = first(OUTPUT, attrs, used, consumed);
  const model = first(MODEL, attrs, used);
  const prompt = first(PROMPT_TOKENS, attrs, used);
  const completion = first(COMPLETION_TOKENS, attrs, used);
  let total = first(TOTAL_TOKENS, attrs, used);
  if (total === undefined && prompt !== undefined && completion !== undefined) total = prompt + completion;
  let usage: SpanUsage | undefined;
  if (prompt !== undefined || completion !== undefined || total !== undefined) {
    usage = {};
    if (prompt !== undefined) usage.prompt_tokens = prompt;
    if (completion !== undefined) usage.completion_tokens = completion;
    if (total !== undefined) usage.total_tokens = total;
    if (isOneRequest(attrs)) usage.requests = 1;
  }
  for (const k of RESPONSE_KEYS) consumed.add(k);
  const attributes: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (!consumed.has(k)) attributes[k] = v;
  const conventions = (['gen_ai', 'gen_ai_legacy', 'openinference', 'openllmetry', 'vercel_ai'] as const).filter((c) => used.has(c));
  return { inputs, output, model, usage, response: responseFields(attrs), attributes, conventions };
}
