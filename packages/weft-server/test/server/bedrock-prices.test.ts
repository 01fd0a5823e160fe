// Bedrock model ids (weft's wrapBedrock keys usage by the modelId asked for) are priced as the underlying model's Bedrock price.
import { describe, expect, it } from 'vitest';
import { ratesFor } from '../../src/server/calls/prices/price-lookup.js';

describe('ratesFor a Bedrock model id', () => {
  it.each([
    ['anthropic.claude-3-5-haiku-20241022-v1:0', 0.8, 4, 0.08, 1],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 3, 15, 0.3, 3.75],
    ['global.anthropic.claude-sonnet-4-5-20250929-v1:0', 3, 15, 0.3, 3.75],
    ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-lite-v1:0', 0.06, 0.24, 0.015, undefined],
    ['amazon.nova-pro-v1:0', 0.8, 3.2, 0.2, undefined],
    ['meta.llama3-1-70b-instruct-v1:0', 0.72, 0.72, undefined, undefined],
    ['amazon.titan-text-express-v1', 0.2, 0.6, undefined, undefined],
  ])('%s: input %f, output %f, cache read %s, cache write %s (USD per 1M tokens, genai-prices aws table)', (model, input, output, cacheRead, cacheWrite) => {
    const r = ratesFor({}, model, 100);
    expect(r).toMatchObject({ input, output, source: 'genai-prices' });
    expect(r?.cacheRead).toBe(cacheRead);
    expect(r?.cacheWrite).toBe(cacheWrite);
  });

  it('an override of the id wins; other model names are looked up as before', () => {
    expect(ratesFor({ 'amazon.nova-pro-v1:0': { promptUsdPer1M: 1, completionUsdPer1M: 2 } }, 'amazon.nova-pro-v1:0', 100)).toMatchObject({ input: 1, output: 2, source: 'override' });
    expect(ratesFor({}, 'gpt-4o', 100)).toMatchObject({ input: 2.5, pricedAs: 'gpt-4o' });
  });
});
