/**
 * The model price table behind stream_query `include_costs`, and the cost of a call's `summary.usage`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Price of one model, in US dollars per 1,000,000 tokens (the unit providers publish). */
export interface ModelPrice {
  /** USD per 1M prompt (input) tokens; >= 0. */
  promptUsdPer1M: number;
  /** USD per 1M completion (output) tokens; >= 0. */
  completionUsdPer1M: number;
}

/** Model name → price. Keys are matched against the model names in `summary.usage`. */
export type PriceTable = Record<string, ModelPrice>;

const Usd = z.number().finite().min(0);
const PriceTableSchema = z.record(z.string().min(1), z.strictObject({ promptUsdPer1M: Usd, completionUsdPer1M: Usd }));

/**
 * Built-in list prices (USD per 1M tokens, standard tier, as published by the providers in 2025).
 * Override or extend with `startServer({ prices })` or `weft serve --prices prices.json`.
 */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { promptUsdPer1M: 2.5, completionUsdPer1M: 10 },
  'gpt-4o-mini': { promptUsdPer1M: 0.15, completionUsdPer1M: 0.6 },
  'gpt-4.1': { promptUsdPer1M: 2, completionUsdPer1M: 8 },
  'gpt-4.1-mini': { promptUsdPer1M: 0.4, completionUsdPer1M: 1.6 },
  'gpt-4.1-nano': { promptUsdPer1M: 0.1, completionUsdPer1M: 0.4 },
  'gpt-3.5-turbo': { promptUsdPer1M: 0.5, completionUsdPer1M: 1.5 },
  'o3-mini': { promptUsdPer1M: 1.1, completionUsdPer1M: 4.4 },
  'claude-3-5-sonnet': { promptUsdPer1M: 3, completionUsdPer1M: 15 },
  'claude-3-5-haiku': { promptUsdPer1M: 0.8, completionUsdPer1M: 4 },
  'claude-3-opus': { promptUsdPer1M: 15, completionUsdPer1M: 75 },
};

/**
 * Checks a price table (from code or a JSON file).
 *
 * @param table - model → `{promptUsdPer1M, completionUsdPer1M}`.
 * @returns the table.
 * @throws TypeError naming the first bad entry.
 */
export function checkPriceTable(table: unknown): PriceTable {
  const parsed = PriceTableSchema.safeParse(table);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new TypeError(`prices: ${issue.path.join('.') || '(table)'}: ${issue.message}; expected {"<model>": {"promptUsdPer1M": number >= 0, "completionUsdPer1M": number >= 0}}`);
}

/** Reads and checks a JSON price table file (the `--prices` option). @throws the read/parse error or a TypeError. */
export function loadPriceFile(path: string): PriceTable {
  return checkPriceTable(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}

/**
 * Finds the price of a model: its exact name, else the longest table key that is a prefix followed by
 * `-` (so `gpt-4o-2024-08-06` is priced as `gpt-4o`, and `gpt-4o-mini-2024-07-18` as `gpt-4o-mini`).
 */
export function priceOf(table: PriceTable, model: string): [string, ModelPrice] | undefined {
  const exact = table[model];
  if (exact) return [model, exact];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(`${key}-`) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : [best, table[best]!];
}

/** Cost of one model's usage in a call, in USD (`*_token_cost` are USD per token). */
export interface ModelCost {
  prompt_tokens: number;
  completion_tokens: number;
  requests: number;
  total_tokens: number;
  prompt_token_cost: number;
  completion_token_cost: number;
  prompt_tokens_total_cost: number;
  completion_tokens_total_cost: number;
  total_cost: number;
  cost_unit: 'USD';
  /** The price table key used. */
  priced_as: string;
}

const count = (usage: Record<string, unknown>, ...keys: string[]): number => {
  for (const k of keys) if (typeof usage[k] === 'number') return usage[k];
  return 0;
};

/**
 * Prices the `summary.usage` of a call: tokens times the model's price. Models missing from the table
 * are left out. `input_tokens` / `output_tokens` are read when `prompt_tokens` / `completion_tokens` are absent.
 *
 * @param usage - `summary.usage` (model → token counts), or undefined.
 * @param table - the price table.
 * @returns model → cost, one entry per priced model.
 */
export function costsOf(usage: unknown, table: PriceTable): Record<string, ModelCost> {
  const out: Record<string, ModelCost> = {};
  if (!usage || typeof usage !== 'object') return out;
  for (const [model, raw] of Object.entries(usage as Record<string, unknown>)) {
    const price = priceOf(table, model);
    if (!price || !raw || typeof raw !== 'object') continue;
    const u = raw as Record<string, unknown>;
    const prompt = count(u, 'prompt_tokens', 'input_tokens');
    const completion = count(u, 'completion_tokens', 'output_tokens');
    const promptCost = price[1].promptUsdPer1M / 1e6;
    const completionCost = price[1].completionUsdPer1M / 1e6;
    out[model] = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      requests: count(u, 'requests'),
      total_tokens: count(u, 'total_tokens') || prompt + completion,
      prompt_token_cost: promptCost,
      completion_token_cost: completionCost,
      prompt_tokens_total_cost: prompt * promptCost,
      completion_tokens_total_cost: completion * completionCost,
      total_cost: prompt * promptCost + completion * completionCost,
      cost_unit: 'USD',
      priced_as: price[0],
    };
  }
  return out;
}
