/**
 * The server's price table (`startServer({ prices })`, `weft serve --prices <file>`): its shape, its check, and the
 * reading of a JSON price file, without the bundled genai-prices table (prices.ts), so the CLI starts without loading it.
 * @module
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Price of one model, in US dollars per 1,000,000 tokens (the unit providers publish). */
export interface ModelPrice {
  /** USD per 1M prompt (input) tokens not read from or written to a cache; >= 0. */
  promptUsdPer1M: number;
  /** USD per 1M completion (output) tokens, reasoning included; >= 0. */
  completionUsdPer1M: number;
  /** USD per 1M input tokens read from the provider's prompt cache; >= 0. @defaultValue `promptUsdPer1M` */
  cacheReadUsdPer1M?: number | undefined;
  /** USD per 1M input tokens written to the prompt cache (Anthropic); >= 0. @defaultValue `promptUsdPer1M` */
  cacheWriteUsdPer1M?: number | undefined;
}

/** Model name → price. Keys are matched against the model names in `summary.usage`. */
export type PriceTable = Record<string, ModelPrice>;

const Usd = z.number().finite().min(0);
const PriceTableSchema = z.record(
  z.string().min(1),
  z.strictObject({ promptUsdPer1M: Usd, completionUsdPer1M: Usd, cacheReadUsdPer1M: Usd.optional(), cacheWriteUsdPer1M: Usd.optional() }),
);

/**
 * Built-in overrides: none. Models are priced from `@pydantic/genai-prices` (a maintained table of
 * provider list prices with cache and tiered rates, bundled in the package and never fetched at run
 * time); `startServer({ prices })` or `weft serve --prices prices.json` add or replace models. Gemini models
 * (`gemini-2.0-*`, `gemini-2.5-*`, `gemini-3-*` previews, `gemini-embedding-*`) are in that table with the rates
 * Google publishes (https://ai.google.dev/gemini-api/docs/pricing: cache reads, audio input, the long-context tier
 * above 200k input tokens), so none is repeated here: an override has one rate per kind and would drop the tiers.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({});

/**
 * Checks a price table (from code or a JSON file).
 *
 * @param table - model → `{promptUsdPer1M, completionUsdPer1M, cacheReadUsdPer1M?, cacheWriteUsdPer1M?}`.
 * @returns the table.
 * @throws TypeError naming the first bad entry.
 */
export function checkPriceTable(table: unknown): PriceTable {
  const parsed = PriceTableSchema.safeParse(table);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new TypeError(
    `prices: ${issue.path.join('.') || '(table)'}: ${issue.message}; expected {"<model>": {"promptUsdPer1M": number >= 0, "completionUsdPer1M": number >= 0, ` +
      '"cacheReadUsdPer1M"?: number >= 0, "cacheWriteUsdPer1M"?: number >= 0}}',
  );
}

/** Reads and checks a JSON price table file (the `--prices` option). @throws the read/parse error or a TypeError. */
export function loadPriceFile(path: string): PriceTable {
  return checkPriceTable(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}
