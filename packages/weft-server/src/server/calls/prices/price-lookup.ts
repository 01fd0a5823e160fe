/**
 * Where a model's per-token rates come from: the `--prices` overrides first, then the maintained table of `@pydantic/genai-prices` (bundled, never fetched).
 * @module
 */
import { calcPrice } from '@pydantic/genai-prices';
import type { ModelPrice, PriceTable } from './price-table.js';

/** Rates of one model for one usage, in USD per 1,000,000 tokens; a missing part is priced as its whole (input or output). */
export interface Rates {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  inputAudio?: number;
  outputAudio?: number;
  /** The table key or genai-prices model id used. */
  pricedAs: string;
  /** `override` (the server's `prices` table) or `genai-prices`. */
  source: 'override' | 'genai-prices';
}

/** A dated or `latest` version suffix: `2024-08-06`, `20241022`, `latest`. */
const VERSION = /^(?:\d[\d-]*|latest)$/;

/**
 * Finds a price in the override table: the model's exact name, else a key followed by `-` and a version
 * (so `gpt-4o-2024-08-06` is priced as `gpt-4o`, while `gpt-4o-mini-2024-07-18` is not: it is `gpt-4o-mini`).
 */
export function priceOf(table: PriceTable, model: string): [string, ModelPrice] | undefined {
  const exact = table[model];
  if (exact) return [model, exact];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(`${key}-`) && VERSION.test(model.slice(key.length + 1)) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : [best, table[best]!];
}

type Tiered = { base: number; tiers: { start: number; price: number }[] };
type GenaiPrice = Record<string, number | Tiered | undefined>;

/** A genai-prices rate: a number, or tiered by the request's input tokens (the tier whose `start` it exceeds). */
function rateAt(v: number | Tiered | undefined, inputTokens: number): number | undefined {
  if (v === undefined || typeof v === 'number') return v;
  let price = v.base;
  for (const t of v.tiers) if (inputTokens > t.start) price = t.price;
  return price;
}

/**
 * An Amazon Bedrock model id (`anthropic.claude-3-5-haiku-20241022-v1:0`, with a cross-region inference profile's
 * prefix `us.` / `eu.` / `apac.` / `global.`, or an ARN ending in one): genai-prices prices these under its `aws` provider
 * only (they are the underlying models' Bedrock prices), so they are looked up there, an ARN by the id it ends in.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html
 */
const BEDROCK_ID = /^(?:arn:aws[\w-]*:bedrock:[^/]*\/)?((?:[a-z]{2,6}(?:-gov)?\.)?(?:anthropic|meta|amazon|mistral|cohere|ai21|deepseek|qwen|openai|writer)\.[\w.:-]+)$/;

/** genai-prices model match per model name (its lookup walks every provider: cached, bounded). */
const found = new Map<string, { id: string; prices: GenaiPrice } | null>();
const FOUND_LIMIT = 5000;

function genaiModel(model: string): { id: string; prices: GenaiPrice } | null {
  let hit = found.get(model);
  if (hit !== undefined) return hit;
  try {
    const bedrock = BEDROCK_ID.exec(model)?.[1];
    const r = bedrock === undefined ? calcPrice({ input_tokens: 0, output_tokens: 0 }, model) : calcPrice({ input_tokens: 0, output_tokens: 0 }, bedrock, { providerId: 'aws' });
    hit = r ? { id: r.model.id, prices: r.model_price as GenaiPrice } : null;
  } catch {
    hit = null;
  }
  if (found.size >= FOUND_LIMIT) found.clear();
  found.set(model, hit);
  return hit;
}

/**
 * The rates for `model` at `inputTokens` (one request's whole input, which picks the tier of tiered
 * prices such as long-context rates), or `undefined` when neither the overrides nor genai-prices know it.
 * Callers pricing a `usage` entry that sums several requests pass the mean input per request (requests
 * of one model that straddle a tier are approximated).
 */
export function ratesFor(table: PriceTable, model: string, inputTokens: number): Rates | undefined {
  const own = priceOf(table, model);
  if (own) {
    const p = own[1];
    return {
      input: p.promptUsdPer1M,
      output: p.completionUsdPer1M,
      cacheRead: p.cacheReadUsdPer1M,
      cacheWrite: p.cacheWriteUsdPer1M,
      pricedAs: own[0],
      source: 'override',
    };
  }
  const g = genaiModel(model);
  if (!g) return undefined;
  const at = (k: string): number | undefined => rateAt(g.prices[k], inputTokens);
  const input = at('input_mtok');
  // an input-only price (embedding models such as gemini-embedding-001): such a model produces no output tokens
  const output = at('output_mtok') ?? 0;
  if (input === undefined) return undefined;
  return {
    input,
    output,
    cacheRead: at('cache_read_mtok'),
    cacheWrite: at('cache_write_mtok'),
    inputAudio: at('input_audio_mtok'),
    outputAudio: at('output_audio_mtok'),
    pricedAs: g.id,
    source: 'genai-prices',
  };
}
