/**
 * What wrapBedrock records of an InvokeModel request and answer, by the body family of the model: Anthropic Claude, Meta Llama, Amazon Nova, Amazon Titan Text.
 * @module
 */
import { anthropicUsage, bedrockUsage, type TokenUsage } from '../../instrument/usage-model.js';
import { foldMessageEvent } from '../anthropic.js';
import { converseFinishReasons, foldConverseEvent } from './converse-folds.js';

type Obj = Record<string, unknown>;

/** The body a model family takes and answers with. */
export type BodyFamily = 'anthropic' | 'meta' | 'nova' | 'titan' | 'other';

/** Bedrock puts these invocation metrics on a stream's last chunk: `{inputTokenCount, outputTokenCount, invocationLatency, firstByteLatency}`. */
const METRICS = 'amazon-bedrock-invocationMetrics';

const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * The family of a model id: the provider part after an optional cross-region prefix (`us.`, `eu.`, `global.`, ...) and
 * an ARN's path (`anthropic.claude-...`, `meta.llama...`, `amazon.nova-...`, `amazon.titan-text-...`).
 */
export function familyOf(modelId: unknown): BodyFamily {
  const id = String(modelId ?? '').split('/').pop() ?? '';
  const m = /^(?:[a-z]{2,6}(?:-gov)?\.)?(anthropic|meta|amazon)\.([a-z]+)/.exec(id);
  if (m?.[1] === 'anthropic' || m?.[1] === 'meta') return m[1];
  if (m?.[1] === 'amazon' && (m[2] === 'nova' || m[2] === 'titan')) return m[2];
  return 'other';
}

/** A body the SDK sends or receives (a string, bytes, or a JSON object) as JSON, else `undefined`. */
export function decodeJson(body: unknown): unknown {
  try {
    if (typeof body === 'string') return JSON.parse(body) as unknown;
    if (body instanceof Uint8Array) return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch {
    return undefined;
  }
  return obj(body);
}

/** A Llama stream chunk into the body: `generation` text joined; counts and `stop_reason` the latest sent. */
function foldLlama(acc: Obj | undefined, c: Obj): Obj {
  const a = acc ?? { generation: '' };
  a['generation'] = String(a['generation'] ?? '') + String(c['generation'] ?? '');
  for (const k of ['prompt_token_count', 'generation_token_count', 'stop_reason']) if (c[k] !== undefined && c[k] !== null) a[k] = c[k];
  return a;
}

/** A Titan Text stream chunk into the body: `{inputTextTokenCount, results: [{outputText, tokenCount, completionReason}]}`. */
function foldTitan(acc: Obj | undefined, c: Obj): Obj {
  const a = acc ?? { results: [{ outputText: '' }] };
  const r = (a['results'] as Obj[])[0]!;
  r['outputText'] = String(r['outputText'] ?? '') + String(c['outputText'] ?? '');
  const set = (to: Obj, key: string, v: unknown): void => void (v !== undefined && v !== null && (to[key] = v));
  set(r, 'tokenCount', c['totalOutputTextTokenCount']);
  set(r, 'completionReason', c['completionReason']);
  set(a, 'inputTextTokenCount', c['inputTextTokenCount']);
  return a;
}

/**
 * Folds one InvokeModelWithResponseStream event (`{chunk: {bytes}}`, the bytes a JSON chunk of the model's body) into
 * the body the model would have answered at once, by family; the invocation metrics of the last chunk are kept.
 */
export function foldInvokeChunk(family: BodyFamily, acc: unknown, event: unknown): unknown {
  const c = obj(decodeJson(obj(obj(event)?.['chunk'])?.['bytes']));
  if (c === undefined) return acc;
  let a: Obj | undefined;
  if (family === 'anthropic') a = foldMessageEvent(acc, c) as Obj;
  else if (family === 'nova') a = foldConverseEvent(acc, c) as Obj;
  else if (family === 'meta') a = foldLlama(acc as Obj | undefined, c);
  else if (family === 'titan') a = foldTitan(acc as Obj | undefined, c);
  else a = { ...(acc as Obj | undefined), ...c };
  if (c[METRICS] !== undefined) a[METRICS] = c[METRICS];
  return a;
}

/** The usage a body reports, by family; else the stream's invocation metrics. */
export function invokeUsage(family: BodyFamily, body: unknown): TokenUsage | undefined {
  const b = obj(body);
  if (b === undefined) return undefined;
  let u: TokenUsage | undefined;
  if (family === 'anthropic') u = anthropicUsage(b['usage']);
  else if (family === 'nova') u = bedrockUsage(b['usage']);
  else if (family === 'meta') u = bedrockUsage({ inputTokens: num(b['prompt_token_count']), outputTokens: num(b['generation_token_count']) });
  else if (family === 'titan') {
    const results = Array.isArray(b['results']) ? (b['results'] as Obj[]) : [];
    const out = results.reduce((n, r) => n + (num(r['tokenCount']) ?? 0), 0);
    u = bedrockUsage({ inputTokens: num(b['inputTextTokenCount']), outputTokens: results.length > 0 ? out : undefined });
  }
  if (u !== undefined) return u;
  const m = obj(b[METRICS]);
  return m ? bedrockUsage({ inputTokens: num(m['inputTokenCount']), outputTokens: num(m['outputTokenCount']) }) : undefined;
}

/** A body's finish reasons, by family. */
export function invokeFinishReasons(family: BodyFamily, body: unknown): string[] | undefined {
  const b = obj(body);
  if (family === 'nova') return converseFinishReasons(b);
  if (family === 'titan') {
    const reasons = (Array.isArray(b?.['results']) ? (b['results'] as Obj[]) : []).map((r) => r['completionReason']).filter((r): r is string => typeof r === 'string');
    return reasons.length > 0 ? reasons : undefined;
  }
  const r = b?.['stop_reason'];
  return typeof r === 'string' ? [r] : undefined;
}
