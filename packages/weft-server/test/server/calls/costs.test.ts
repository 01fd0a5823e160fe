// include_costs arithmetic: each kind of token at its own rate, checked against hand-computed cases for OpenAI, Anthropic and Gemini usage
// (the usage as the SDK's usage model makes it, tested in packages/weft-trace/test/instrument/usage-model.test.ts).
import { calcPrice } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { anthropicUsage, geminiUsage, openAIChatUsage } from 'weft-trace/src/instrument/usage-model.js';
import { costsOf } from '../../../src/server/calls/prices/prices.js';

describe('costsOf', () => {
  it('OpenAI gpt-4o: 1000 uncached input at $2.50/M, 200 cached at $1.25/M, 80 output (30 of them reasoning) at $10/M', () => {
    const usage = { 'gpt-4o-2024-08-06': openAIChatUsage({ prompt_tokens: 1200, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 30 } }) };
    const c = costsOf(usage, {})['gpt-4o-2024-08-06']!;
    expect(c).toMatchObject({ priced_as: 'gpt-4o', price_source: 'genai-prices', cache_read_input_tokens: 200, cache_creation_input_tokens: 0 });
    expect(c.cache_read_input_tokens_total_cost).toBeCloseTo(200 * 1.25e-6, 12);
    expect(c.prompt_tokens_total_cost).toBeCloseTo(1000 * 2.5e-6 + 200 * 1.25e-6, 12); // 0.00275
    expect(c.completion_tokens_total_cost).toBeCloseTo(80 * 10e-6, 12);
    expect(c.total_cost).toBeCloseTo(0.00355, 12);
    // the same as the library's own total
    expect(c.total_cost).toBeCloseTo(calcPrice({ input_tokens: 1200, cache_read_tokens: 200, output_tokens: 80 }, 'gpt-4o')!.total_price, 12);
  });

  it('Anthropic claude-sonnet-4-5: 1000 input at $3/M, 300 cache writes at $3.75/M, 200 cache reads at $0.30/M, 80 output at $15/M', () => {
    const usage = { 'claude-sonnet-4-5': anthropicUsage({ input_tokens: 1000, cache_creation_input_tokens: 300, cache_read_input_tokens: 200, output_tokens: 80 }) };
    const c = costsOf(usage, {})['claude-sonnet-4-5']!;
    expect(c.cache_creation_input_tokens_total_cost).toBeCloseTo(300 * 3.75e-6, 12);
    expect(c.cache_read_input_tokens_total_cost).toBeCloseTo(200 * 0.3e-6, 12);
    expect(c.prompt_tokens_total_cost).toBeCloseTo(0.003 + 0.001125 + 0.00006, 12); // 0.004185
    expect(c.completion_tokens_total_cost).toBeCloseTo(0.0012, 12);
    expect(c.total_cost).toBeCloseTo(0.005385, 12);
    expect(c.total_cost).toBeCloseTo(
      calcPrice({ input_tokens: 1500, cache_write_tokens: 300, cache_read_tokens: 200, output_tokens: 80 }, 'claude-sonnet-4-5', { providerId: 'anthropic' })!.total_price,
      12,
    );
  });

  it('tiered (long-context) rates follow the input per request, not the trace total', () => {
    const one = costsOf({ 'claude-sonnet-4-5': { prompt_tokens: 250_000, completion_tokens: 0, requests: 1 } }, {})['claude-sonnet-4-5']!;
    expect(one.prompt_tokens_total_cost).toBeCloseTo(250_000 * 6e-6, 9);
    const two = costsOf({ 'claude-sonnet-4-5': { prompt_tokens: 300_000, completion_tokens: 0, requests: 2 } }, {})['claude-sonnet-4-5']!;
    expect(two.prompt_tokens_total_cost).toBeCloseTo(300_000 * 3e-6, 9);
  });

  it('overrides win, price cache parts at their own rates (or as input when absent), and match versions only', () => {
    const table = { 'acme-llm': { promptUsdPer1M: 4, completionUsdPer1M: 8, cacheReadUsdPer1M: 1 }, 'gpt-4o': { promptUsdPer1M: 1, completionUsdPer1M: 2 } };
    const costs = costsOf(
      {
        'acme-llm-2025-01-01': { prompt_tokens: 1000, cache_read_input_tokens: 400, cache_creation_input_tokens: 100, completion_tokens: 10, requests: 1 },
        'gpt-4o-mini': { prompt_tokens: 1000, completion_tokens: 0, requests: 1 },
        'no-such-model-xyz': { prompt_tokens: 5, completion_tokens: 5 },
      },
      table,
    );
    const acme = costs['acme-llm-2025-01-01']!;
    expect(acme).toMatchObject({ priced_as: 'acme-llm', price_source: 'override' });
    expect(acme.prompt_tokens_total_cost).toBeCloseTo((500 * 4 + 400 * 1 + 100 * 4) / 1e6, 12);
    expect(acme.total_cost).toBeCloseTo((500 * 4 + 400 * 1 + 100 * 4 + 10 * 8) / 1e6, 12);
    expect(costs['gpt-4o-mini']).toMatchObject({ priced_as: 'gpt-4o-mini', price_source: 'genai-prices' });
    expect(costs).not.toHaveProperty('no-such-model-xyz');
  });

  it('Gemini gemini-2.5-flash: 1000 input at $0.30/M, 200 cached at $0.03/M, 70 output (30 of them thoughts) at $2.50/M; an embedding model has an input price only', () => {
    const usage = { 'gemini-2.5-flash': geminiUsage({ promptTokenCount: 1200, cachedContentTokenCount: 200, candidatesTokenCount: 40, thoughtsTokenCount: 30 }) };
    const c = costsOf(usage, {})['gemini-2.5-flash']!;
    expect(c).toMatchObject({ priced_as: 'gemini-2.5-flash', price_source: 'genai-prices', cache_read_input_tokens_total_cost: 0.000006, total_cost: 0.000481 });
    expect(c.total_cost).toBeCloseTo(calcPrice({ input_tokens: 1200, cache_read_tokens: 200, output_tokens: 70 }, 'gemini-2.5-flash')!.total_price, 12);
    const e = costsOf({ 'gemini-embedding-001': geminiUsage({ promptTokenCount: 1000 }) }, {})['gemini-embedding-001']!;
    expect(e).toMatchObject({ prompt_tokens_total_cost: 0.00015, completion_token_cost: 0, total_cost: 0.00015 });
  });
});
