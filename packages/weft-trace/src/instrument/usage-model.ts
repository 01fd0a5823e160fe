/**
 * The usage model: each provider's token counts turned into one shape for `summary.usage[model]`, each counting rule applied here once.
 * @module
 */

/**
 * Token counts of one model in `summary.usage[model]`, the same shape for every provider.
 *
 * - `prompt_tokens` and `input_tokens` carry the same number: **all** input tokens of the request,
 *   cache reads and cache writes included (so queries written for either naming work);
 *   `completion_tokens` and `output_tokens` likewise: all output tokens, reasoning included.
 * - `cache_read_input_tokens`, `cache_creation_input_tokens`, `input_audio_tokens` are parts of the input
 *   total; `reasoning_tokens`, `output_audio_tokens` parts of the output total. Present only when reported.
 * - `requests`: model requests (1 per call; summed up the trace like every number here).
 *
 * The server prices each part at its own rate (cache reads and writes have their own), see
 * `packages/weft-server/src/server/calls/prices/prices.ts`.
 */
export interface TokenUsage {
  prompt_tokens: number;
  input_tokens: number;
  completion_tokens: number;
  output_tokens: number;
  total_tokens: number;
  requests: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  reasoning_tokens?: number;
  input_audio_tokens?: number;
  output_audio_tokens?: number;
}

type Raw = Record<string, unknown> | null | undefined;

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

function obj(v: unknown): Raw {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
}

/** Builds the shape from the input and output totals and their parts (zero parts are left out). */
function usageOf(input: number, output: number, total: number | undefined, parts: Partial<Record<keyof TokenUsage, number>>): TokenUsage {
  const u: TokenUsage = {
    prompt_tokens: input,
    input_tokens: input,
    completion_tokens: output,
    output_tokens: output,
    total_tokens: total !== undefined && total > 0 ? total : input + output,
    requests: 1,
  };
  for (const k in parts) {
    const v = parts[k as keyof TokenUsage];
    if (v) u[k as keyof TokenUsage] = v;
  }
  return u;
}

/**
 * OpenAI Chat Completions `usage` (also the final chunk of a stream with `include_usage`).
 * Rule: `prompt_tokens` already **includes** `prompt_tokens_details.cached_tokens`, and
 * `completion_tokens` includes `completion_tokens_details.reasoning_tokens` (both are breakdowns).
 * Embeddings report `prompt_tokens` and `total_tokens` only.
 * @see https://platform.openai.com/docs/api-reference/chat/object (usage) and https://platform.openai.com/docs/guides/prompt-caching
 */
export function openAIChatUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const pd = obj(u['prompt_tokens_details']);
  const cd = obj(u['completion_tokens_details']);
  return usageOf(num(u['prompt_tokens']), num(u['completion_tokens']), num(u['total_tokens']), {
    cache_read_input_tokens: num(pd?.['cached_tokens']),
    input_audio_tokens: num(pd?.['audio_tokens']),
    reasoning_tokens: num(cd?.['reasoning_tokens']),
    output_audio_tokens: num(cd?.['audio_tokens']),
  });
}

/**
 * OpenAI Responses API `usage`. Rule: `input_tokens` includes `input_tokens_details.cached_tokens`;
 * `output_tokens` includes `output_tokens_details.reasoning_tokens`.
 * @see https://platform.openai.com/docs/api-reference/responses/object (usage)
 */
export function openAIResponsesUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const id = obj(u['input_tokens_details']);
  const od = obj(u['output_tokens_details']);
  return usageOf(num(u['input_tokens']), num(u['output_tokens']), num(u['total_tokens']), {
    cache_read_input_tokens: num(id?.['cached_tokens']),
    reasoning_tokens: num(od?.['reasoning_tokens']),
  });
}

/**
 * Anthropic Messages `usage`. Rule: `input_tokens` counts only the tokens **after the last cache
 * breakpoint**; `cache_creation_input_tokens` and `cache_read_input_tokens` come **on top** of it, so the
 * input total is their sum. `output_tokens` includes extended-thinking tokens (no separate count is reported).
 * In a stream, `message_start` carries the input counts and `message_delta` the cumulative output count.
 * @see https://docs.anthropic.com/en/api/messages (usage) and https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function anthropicUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const read = num(u['cache_read_input_tokens']);
  const write = num(u['cache_creation_input_tokens']);
  const input = num(u['input_tokens']) + read + write;
  return usageOf(input, num(u['output_tokens']), undefined, { cache_read_input_tokens: read, cache_creation_input_tokens: write });
}

/**
 * Amazon Bedrock `TokenUsage` (Converse, ConverseStream's `metadata` event, an Amazon Nova InvokeModel body; also
 * `{inputTokens, outputTokens}` built from other bodies' counts). Rule: `inputTokens` counts the tokens not read from
 * or written to the prompt cache; `cacheReadInputTokens` and `cacheWriteInputTokens` (Nova's body:
 * `cacheReadInputTokenCount` / `cacheWriteInputTokenCount`) come on top of it, as Anthropic's do, so the input total
 * is their sum.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html and https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 */
export function bedrockUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u || (u['inputTokens'] === undefined && u['outputTokens'] === undefined)) return undefined;
  const read = num(u['cacheReadInputTokens'] ?? u['cacheReadInputTokenCount']);
  const write = num(u['cacheWriteInputTokens'] ?? u['cacheWriteInputTokenCount']);
  return usageOf(num(u['inputTokens']) + read + write, num(u['outputTokens']), undefined, { cache_read_input_tokens: read, cache_creation_input_tokens: write });
}

/**
 * Vercel AI SDK 6 `LanguageModelUsage` (`result.usage` / `totalUsage`). Rule: `inputTokens` is the
 * total, `inputTokenDetails.cacheReadTokens` / `cacheWriteTokens` are parts of it (the SDK's providers
 * already added Anthropic's cache counts in); `outputTokens` includes `outputTokenDetails.reasoningTokens`.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text (LanguageModelUsage)
 */
export function aiSdkUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const id = obj(u['inputTokenDetails']);
  const od = obj(u['outputTokenDetails']);
  return usageOf(num(u['inputTokens']), num(u['outputTokens']), num(u['totalTokens']), {
    cache_read_input_tokens: num(id?.['cacheReadTokens'] ?? u['cachedInputTokens']),
    cache_creation_input_tokens: num(id?.['cacheWriteTokens']),
    reasoning_tokens: num(od?.['reasoningTokens'] ?? u['reasoningTokens']),
  });
}

/**
 * Google Gemini `usageMetadata` (`@google/genai`, the Gemini API and Vertex AI). Rule: `promptTokenCount` already
 * **includes** `cachedContentTokenCount`; `toolUsePromptTokenCount` (tool results fed back to the model) comes **on
 * top** of it, so the input total is their sum; `candidatesTokenCount` **excludes** `thoughtsTokenCount`, so the
 * output total is their sum (thinking is billed as output); `totalTokenCount` is the sum of all four. Input audio
 * is the `AUDIO` entry of `promptTokensDetails` (`promptTokenDetails` in an embeddings response). In a stream each
 * chunk carries the running total of its request, so the last one is the request's usage (the SDK adds the hops of
 * an automatic continuation up itself).
 * @see https://ai.google.dev/api/generate-content#UsageMetadata and https://ai.google.dev/gemini-api/docs/pricing
 */
export function geminiUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const thoughts = num(u['thoughtsTokenCount']);
  const input = num(u['promptTokenCount']) + num(u['toolUsePromptTokenCount']);
  return usageOf(input, num(u['candidatesTokenCount']) + thoughts, num(u['totalTokenCount']), {
    cache_read_input_tokens: num(u['cachedContentTokenCount']),
    input_audio_tokens: modalityCount(u['promptTokensDetails'] ?? u['promptTokenDetails'], 'AUDIO'),
    reasoning_tokens: thoughts,
  });
}

/** The token count of `modality` in a Gemini `ModalityTokenCount[]` breakdown. */
function modalityCount(details: unknown, modality: string): number {
  if (!Array.isArray(details)) return 0;
  let n = 0;
  for (const d of details) if (obj(d)?.['modality'] === modality) n += num((d as Record<string, unknown>)['tokenCount']);
  return n;
}

/**
 * LangChain.js `UsageMetadata` (`AIMessage.usage_metadata`; a stream's chunks add up to it). Rule: `input_tokens`
 * is the total, `input_token_details.cache_read` / `cache_creation` / `audio` are parts of it (LangChain's
 * providers add Anthropic's cache counts in); `output_tokens` includes `output_token_details.reasoning` and `audio`.
 * @see https://v03.api.js.langchain.com/types/_langchain_core.messages.UsageMetadata.html
 */
export function langChainUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const id = obj(u['input_token_details']);
  const od = obj(u['output_token_details']);
  return usageOf(num(u['input_tokens']), num(u['output_tokens']), num(u['total_tokens']), {
    cache_read_input_tokens: num(id?.['cache_read']),
    cache_creation_input_tokens: num(id?.['cache_creation']),
    input_audio_tokens: num(id?.['audio']),
    reasoning_tokens: num(od?.['reasoning']),
    output_audio_tokens: num(od?.['audio']),
  });
}

/**
 * Mastra `UsageStats` (the `usage` attribute of a model generation span). Rule: `inputTokens` is the total, the sum
 * of `inputDetails` (`cacheRead`, `cacheWrite`, `audio` are parts of it); `outputTokens` is the sum of
 * `outputDetails` (`reasoning`, `audio` are parts of it).
 * @see https://mastra.ai/reference/observability/tracing/interfaces (UsageStats)
 */
export function mastraUsage(raw: unknown): TokenUsage | undefined {
  const u = obj(raw);
  if (!u || (u['inputTokens'] === undefined && u['outputTokens'] === undefined)) return undefined;
  const id = obj(u['inputDetails']);
  const od = obj(u['outputDetails']);
  return usageOf(num(u['inputTokens']), num(u['outputTokens']), undefined, {
    cache_read_input_tokens: num(id?.['cacheRead']),
    cache_creation_input_tokens: num(id?.['cacheWrite']),
    input_audio_tokens: num(id?.['audio']),
    reasoning_tokens: num(od?.['reasoning']),
    output_audio_tokens: num(od?.['audio']),
  });
}

/** A request whose usage the provider did not report (yet): it still counts as one request, with no tokens. */
export function unreportedUsage(): TokenUsage {
  return usageOf(0, 0, undefined, {});
}

/** The usage of several requests (`requests` included) as one: each field summed; `undefined` for none. */
export function sumUsage(usages: readonly TokenUsage[]): TokenUsage | undefined {
  if (usages.length === 0) return undefined;
  const total = { ...usages[0]! };
  for (const u of usages.slice(1)) {
    for (const k in u) {
      const key = k as keyof TokenUsage;
      total[key] = (total[key] ?? 0) + (u[key] ?? 0);
    }
  }
  return total;
}

/** `summary.usage` for one model request: `{[model]: usage}`, or `undefined` without a model or usage. */
export function usageByModel(model: unknown, usage: TokenUsage | undefined): Record<string, TokenUsage> | undefined {
  if (typeof model !== 'string' || model === '' || usage === undefined) return undefined;
  return { [model]: usage };
}
