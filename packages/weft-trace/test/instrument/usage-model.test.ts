// The usage model: each provider's token counts to weft's usage (cached, reasoning, cache writes, audio as parts or on top), as
// packages/weft-server/test/server/calls/costs.test.ts then prices it.
import { describe, expect, it } from 'vitest';
import { aiSdkUsage, anthropicUsage, geminiUsage, openAIChatUsage, openAIResponsesUsage } from '../../src/instrument/usage-model.js';

describe('usage model', () => {
  it('OpenAI: cached and reasoning tokens are parts of prompt and completion tokens', () => {
    const u = openAIChatUsage({
      prompt_tokens: 1200,
      completion_tokens: 80,
      total_tokens: 1280,
      prompt_tokens_details: { cached_tokens: 200 },
      completion_tokens_details: { reasoning_tokens: 30 },
    });
    expect(u).toEqual({ prompt_tokens: 1200, input_tokens: 1200, completion_tokens: 80, output_tokens: 80, total_tokens: 1280, requests: 1, cache_read_input_tokens: 200, reasoning_tokens: 30 });
    expect(openAIResponsesUsage({ input_tokens: 1200, input_tokens_details: { cached_tokens: 200 }, output_tokens: 80, output_tokens_details: { reasoning_tokens: 30 }, total_tokens: 1280 })).toEqual(u);
  });

  it('Anthropic: cache reads and writes come on top of input_tokens', () => {
    expect(anthropicUsage({ input_tokens: 1000, cache_creation_input_tokens: 300, cache_read_input_tokens: 200, output_tokens: 80 })).toEqual({
      prompt_tokens: 1500,
      input_tokens: 1500,
      completion_tokens: 80,
      output_tokens: 80,
      total_tokens: 1580,
      requests: 1,
      cache_read_input_tokens: 200,
      cache_creation_input_tokens: 300,
    });
  });

  it('AI SDK: inputTokens is the total, its details are parts', () => {
    expect(
      aiSdkUsage({ inputTokens: 1500, inputTokenDetails: { cacheReadTokens: 200, cacheWriteTokens: 300 }, outputTokens: 80, outputTokenDetails: { reasoningTokens: 30 }, totalTokens: 1580 }),
    ).toMatchObject({ prompt_tokens: 1500, cache_read_input_tokens: 200, cache_creation_input_tokens: 300, reasoning_tokens: 30, total_tokens: 1580 });
  });

  it('Gemini: cached tokens are part of the prompt, tool-use prompt and thoughts come on top, audio is a part of the input', () => {
    const u = geminiUsage({
      promptTokenCount: 1200,
      cachedContentTokenCount: 200,
      toolUsePromptTokenCount: 100,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 30,
      totalTokenCount: 1370,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1100 }, { modality: 'AUDIO', tokenCount: 100 }],
    });
    expect(u).toEqual({ prompt_tokens: 1300, input_tokens: 1300, completion_tokens: 70, output_tokens: 70, total_tokens: 1370, requests: 1, cache_read_input_tokens: 200, input_audio_tokens: 100, reasoning_tokens: 30 });
  });
});
