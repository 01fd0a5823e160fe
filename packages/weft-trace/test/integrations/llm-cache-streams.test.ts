// The event streams `weft calls cassette` replays for an answer recorded whole: folded again as the wrappers fold a
// live stream (foldChatChunk, foldMessageEvent, foldResponseEvent), each gives back the recorded answer.
import { describe, expect, it } from 'vitest';
import { foldMessageEvent } from '../../src/integrations/anthropic.js';
import { chatCompletionOfStep, openAIUsageOf } from '../../src/integrations/llm-cache/reply-ai-sdk.js';
import { messageEvents } from '../../src/integrations/llm-cache/stream-anthropic.js';
import { chatCompletionEvents, responseEvents } from '../../src/integrations/llm-cache/stream-openai.js';
import { foldChatChunk, foldResponseEvent } from '../../src/integrations/openai-folds.js';

/** The data of each event (`[DONE]` left out), and each event's `event:` name where it has one. */
function parsed(events: string[]): { name?: string; data: unknown }[] {
  return events.flatMap((e) => {
    const name = /^event: (.*)$/m.exec(e)?.[1];
    const data = /^data: (.*)$/m.exec(e)![1]!;
    return data === '[DONE]' ? [] : [{ ...(name ? { name } : {}), data: JSON.parse(data) as unknown }];
  });
}

const fold = (events: string[], f: (acc: unknown, chunk: unknown) => unknown): unknown => parsed(events).reduce<unknown>((acc, e) => f(acc, e.data), undefined);

const USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };

describe('replayed streams fold back to the recorded answer', () => {
  it('a chat completion with text, logprobs, two tool calls and usage; [DONE] last', () => {
    const completion = {
      id: 'chatcmpl-9',
      object: 'chat.completion',
      created: 1_763_900_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking both.',
            refusal: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } },
            ],
          },
          finish_reason: 'tool_calls',
          logprobs: { content: [{ token: 'Checking', logprob: -0.1, bytes: [], top_logprobs: [] }], refusal: null },
        },
      ],
      usage: USAGE,
      system_fingerprint: 'fp_1',
    };
    const events = chatCompletionEvents(completion, USAGE);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(fold(events, foldChatChunk)).toEqual(completion);
  });

  it('an Anthropic message with thinking (and its signature), text and a tool use', () => {
    const message = {
      id: 'msg_9',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [
        { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig_1' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 100, cache_read_input_tokens: 20, output_tokens: 30 },
    };
    const events = messageEvents(message);
    expect(parsed(events).map((e) => e.name)).toEqual([
      'message_start',
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      'message_delta',
      'message_stop',
    ]);
    expect(fold(events, foldMessageEvent)).toEqual(message);
  });

  it('a Responses API response: created, the message item and its text part, completed; numbered in order', () => {
    const response = {
      id: 'resp_9',
      object: 'response',
      created_at: 1_763_900_000,
      status: 'completed',
      model: 'gpt-4o-mini-2024-07-18',
      output: [{ type: 'message', id: 'msg_9', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }] }],
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
      output_text: 'Sunny.',
    };
    const events = parsed(responseEvents(response));
    expect(events.map((e) => (e.data as { sequence_number: number }).sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.name)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.reduce<unknown>((acc, e) => foldResponseEvent(acc, e.data), undefined)).toEqual(response);
  });

  it('an AI SDK step reply as a chat completion: text joined, tool calls with JSON input, finish reason and usage mapped back', () => {
    const completion = chatCompletionOfStep({
      content: [{ type: 'text', text: 'Let me ' }, { type: 'text', text: 'check.' }, { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } }],
      finishReason: 'tool-calls',
      id: 'chatcmpl-1',
      model: 'gpt-4o-mini-2024-07-18',
      created: 1_763_900_000,
      usage: openAIUsageOf({ prompt_tokens: 1200, completion_tokens: 80, cache_read_input_tokens: 200, reasoning_tokens: 30 }),
    });
    expect(completion).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_763_900_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Let me check.', refusal: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, logprobs: null, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 30 } },
    });
  });
});
