/**
 * The cost behind stream_query `include_costs`: each kind of token in a call's `summary.usage` priced at its own rate (overrides, else genai-prices).
 * @module
 */
import type { PriceTable } from './price-table.js';
import { ratesFor, type Rates } from './price-lookup.js';

/**
 * Cost of one model's usage in a call, in USD (`*_token_cost` are USD per token). The input side is split
 * by kind: `prompt_tokens_total_cost` is the whole input cost and includes the cache parts
 * `cache_read_input_tokens_total_cost` and `cache_creation_input_tokens_total_cost`;
 * `total_cost = prompt_tokens_total_cost + completion_tokens_total_cost`.
 */
export interface ModelCost {
  prompt_tokens: number;
  completion_tokens: number;
  requests: number;
  total_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** USD per uncached input token. */
  prompt_token_cost: number;
  completion_token_cost: number;
  cache_read_input_token_cost: number;
  cache_creation_input_token_cost: number;
  prompt_tokens_total_cost: number;
  completion_tokens_total_cost: number;
  cache_read_input_tokens_total_cost: number;
  cache_creation_input_tokens_total_cost: number;
  total_cost: number;
  cost_unit: 'USD';
  /** The price table key or genai-prices model id used. */
  priced_as: string;
  /** Where the price came from: `override` (the server's `prices`) or `genai-prices`. */
  price_source: 'override' | 'genai-prices';
}

const count = (usage: Record<string, unknown>, ...keys: string[]): number => {
  for (const k of keys) if (typeof usage[k] === 'number' && Number.isFinite(usage[k]) && usage[k] >= 0) return usage[k];
  return 0;
};

/**
 * An amount in USD to 12 significant digits: what the rates and counts mean, without the binary float
 * noise of the arithmetic (`0.000029999999999999997` is `0.00003`).
 */
function usd(amount: number): number {
  return Number(amount.toPrecision(12));
}

/**
 * Prices one model's usage (the shape of `TokenUsage` in `instrument/usage-model.ts`: `prompt_tokens`
 * is all input, cache reads/writes and audio included; `completion_tokens` all output, reasoning included).
 */
function priceUsage(u: Record<string, unknown>, rates: Rates): ModelCost {
  const prompt = count(u, 'prompt_tokens', 'input_tokens');
  const completion = count(u, 'completion_tokens', 'output_tokens');
  const requests = count(u, 'requests');
  const read = Math.min(count(u, 'cache_read_input_tokens'), prompt);
  const write = Math.min(count(u, 'cache_creation_input_tokens'), prompt - read);
  const inAudio = Math.min(count(u, 'input_audio_tokens'), prompt - read - write);
  const outAudio = Math.min(count(u, 'output_audio_tokens'), completion);
  const perToken = (perM: number | undefined, fallback: number): number => (perM ?? fallback) / 1e6;
  const inRate = rates.input / 1e6;
  const outRate = rates.output / 1e6;
  const readRate = perToken(rates.cacheRead, rates.input);
  const writeRate = perToken(rates.cacheWrite, rates.input);
  const readCost = read * readRate;
  const writeCost = write * writeRate;
  const promptCost = (prompt - read - write - inAudio) * inRate + inAudio * perToken(rates.inputAudio, rates.input) + readCost + writeCost;
  const completionCost = (completion - outAudio) * outRate + outAudio * perToken(rates.outputAudio, rates.output);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    requests,
    total_tokens: count(u, 'total_tokens') || prompt + completion,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
    prompt_token_cost: usd(inRate),
    completion_token_cost: usd(outRate),
    cache_read_input_token_cost: usd(readRate),
    cache_creation_input_token_cost: usd(writeRate),
    prompt_tokens_total_cost: usd(promptCost),
    completion_tokens_total_cost: usd(completionCost),
    cache_read_input_tokens_total_cost: usd(readCost),
    cache_creation_input_tokens_total_cost: usd(writeCost),
    total_cost: usd(promptCost + completionCost),
    cost_unit: 'USD',
    priced_as: rates.pricedAs,
    price_source: rates.source,
  };
}

/**
 * Prices the `summary.usage` of a call, each kind of token at its own rate: uncached input, cache
 * reads, cache writes, input audio, output (reasoning included) and output audio; a kind without its own
 * rate is priced as its whole. Models neither in `table` nor known to genai-prices are left out.
 * A root call's usage holds its whole trace (usage is added up the tree), so its cost is the trace's.
 *
 * @param usage - `summary.usage` (model → token counts), or undefined.
 * @param table - the override table (`prices`).
 * @returns model → cost, one entry per priced model.
 */
export function costsOf(usage: unknown, table: PriceTable): Record<string, ModelCost> {
  const out: Record<string, ModelCost> = {};
  if (!usage || typeof usage !== 'object') return out;
  for (const [model, raw] of Object.entries(usage as Record<string, unknown>)) {
    if (!raw || typeof raw !== 'object') continue;
    const u = raw as Record<string, unknown>;
    const perRequest = count(u, 'prompt_tokens', 'input_tokens') / Math.max(1, count(u, 'requests'));
    const rates = ratesFor(table, model, perRequest);
    if (rates) out[model] = priceUsage(u, rates);
  }
  return out;
}
