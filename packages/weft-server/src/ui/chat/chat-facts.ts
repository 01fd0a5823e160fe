/**
 * The chat header's facts of a call: model, input / output / cached / reasoning tokens, cost and time to first
 * token, read from its summary (the usage model of `src/instrument/usage-model.ts`). Pure.
 * @module
 */
import { isObj, str } from './chat-parts.js';

/** What the header shows; a field is absent when the call does not say. */
export interface ChatFacts {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  /** USD, summed over `summary.costs`. */
  costUsd?: number;
  /** ms from the call's start to the first streamed chunk. */
  ttftMs?: number;
}

/** The fields of a call record read. */
export interface FactsCallFields {
  inputs?: unknown;
  attributes?: unknown;
  summary: Record<string, unknown>;
}

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Reads the facts: tokens summed over every model of `summary.usage`; the model as the response named it. */
export function chatFacts(call: FactsCallFields): ChatFacts {
  const s = call.summary;
  const facts: ChatFacts = {};
  const usage = isObj(s.usage) ? s.usage : {};
  const models = Object.keys(usage);
  const attrs = isObj(call.attributes) ? call.attributes : {};
  const model = str(s['gen_ai.response.model']) ?? (models.length === 1 ? models[0] : undefined) ?? str(attrs['gen_ai.request.model']) ?? (isObj(call.inputs) ? str(call.inputs.model) : undefined);
  if (model) facts.model = models.length > 1 ? models.join(', ') : model;
  if (models.length > 0) {
    let inp = 0, out = 0, cached = 0, reasoning = 0;
    for (const u of Object.values(usage)) {
      if (!isObj(u)) continue;
      inp += n(u.input_tokens ?? u.prompt_tokens);
      out += n(u.output_tokens ?? u.completion_tokens);
      cached += n(u.cache_read_input_tokens);
      reasoning += n(u.reasoning_tokens);
    }
    facts.inputTokens = inp;
    facts.outputTokens = out;
    if (cached > 0) facts.cachedTokens = cached;
    if (reasoning > 0) facts.reasoningTokens = reasoning;
  }
  if (isObj(s.costs) && Object.keys(s.costs).length > 0) {
    facts.costUsd = Object.values(s.costs).reduce<number>((sum, c) => sum + (isObj(c) ? n(c.total_cost) : 0), 0);
  }
  if (typeof s.time_to_first_token_ms === 'number') facts.ttftMs = s.time_to_first_token_ms;
  return facts;
}
