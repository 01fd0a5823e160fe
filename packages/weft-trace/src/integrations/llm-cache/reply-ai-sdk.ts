/**
 * The provider answer an AI SDK step's recorded reply stands for: a Chat Completions `chat.completion` (for `@ai-sdk/openai`'s chat models), rebuilt from the step's content, finish reason, response id and model, and usage.
 * @module
 */
import type { TokenUsage } from '../../instrument/usage-model.js';

type Obj = Record<string, unknown>;

/** The AI SDK's unified finish reasons back to Chat Completions' (`stop`, `length` are the same). */
const FINISH: Readonly<Record<string, string>> = { 'tool-calls': 'tool_calls', 'content-filter': 'content_filter', error: 'stop', other: 'stop' };

/**
 * A weft usage record (`summary.usage[model]`) as Chat Completions reports it: prompt and completion tokens, their
 * total, cached prompt tokens and reasoning tokens; `undefined` without one.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export function openAIUsageOf(u: Partial<TokenUsage> | undefined): Obj | undefined {
  if (u === undefined) return undefined;
  const prompt = u.prompt_tokens ?? u.input_tokens ?? 0;
  const completion = u.completion_tokens ?? u.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: u.cache_read_input_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
  };
}

/** What a stored AI SDK step tells of its reply (its output, and facts from its summary). */
export interface AiStepReply {
  /** The step's `output.content`: `text` parts and `tool-call` parts (`toolCallId`, `toolName`, `input` parsed). */
  content: unknown[];
  finishReason: unknown;
  id: string | undefined;
  model: string;
  /** Seconds since the epoch (`created`). */
  created: number;
  usage: Obj | undefined;
}

/**
 * The `chat.completion` of `reply`: one choice whose message holds the text parts joined and the tool calls (their
 * input as JSON text), with the finish reason and usage. `@ai-sdk/openai` reads it back to the same content.
 * Reasoning parts (which Chat Completions does not return) are left out.
 */
export function chatCompletionOfStep(reply: AiStepReply): Obj {
  const parts = reply.content.filter((p): p is Obj => p !== null && typeof p === 'object');
  const texts = parts.filter((p) => p['type'] === 'text').map((p) => String(p['text'] ?? ''));
  const calls = parts
    .filter((p) => p['type'] === 'tool-call')
    .map((p) => ({ id: p['toolCallId'], type: 'function', function: { name: p['toolName'], arguments: typeof p['input'] === 'string' ? p['input'] : JSON.stringify(p['input'] ?? {}) } }));
  const message: Obj = { role: 'assistant', content: texts.length ? texts.join('') : null, refusal: null };
  if (calls.length) message['tool_calls'] = calls;
  const finish = typeof reply.finishReason === 'string' ? (FINISH[reply.finishReason] ?? reply.finishReason) : calls.length ? 'tool_calls' : 'stop';
  const completion: Obj = {
    id: reply.id ?? 'chatcmpl-weft-cassette',
    object: 'chat.completion',
    created: reply.created,
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
  };
  if (reply.usage !== undefined) completion['usage'] = reply.usage;
  return completion;
}
