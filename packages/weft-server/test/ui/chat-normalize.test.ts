// The chat view's normalizers (ui/src/chat/), without a browser: each provider's messages to one shape, in order.
import { describe, expect, it } from 'vitest';
import { chatFacts } from '../../src/ui/chat/chat-facts.js';
import { chatOfCall } from '../../src/ui/chat/chat-of-call.js';
import { base64Bytes, partOf } from '../../src/ui/chat/chat-parts.js';
import { messageList, messagesAndChoices } from '../../src/ui/chat/chat-messages.js';
import { brief } from './chat-brief.js';
import { exceptionOf } from '../../src/ui/api.js';
import { isLlmCall, modelsOf, preview, shortCount } from '../../src/ui/call-facts.js';
import { filtersFromQuery, filtersToQuery, NO_FILTERS } from '../../src/ui/traces-query.js';

const PNG = `data:image/png;base64,${'A'.repeat(400)}`; // 300 bytes

describe('chatOfCall', () => {
  it('reads OpenAI chat completions: system, user with an image, assistant tool call, tool result, the reply', () => {
    const chat = chatOfCall({
      op_name: 'openai.chat.completions.create',
      inputs: { model: 'gpt-4o', messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image_url', image_url: { url: PNG } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ] },
      output: { choices: [{ index: 0, message: { role: 'assistant', content: 'It is 21 °C.', refusal: null }, finish_reason: 'stop' }] },
    });
    expect(chat?.format).toBe('openai-chat');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Weather in Paris?" | media image image/png 300',
      'assistant: tool_call get_weather {"city":"Paris"}',
      'tool: tool_result get_weather call_1 {"temp":21}',
      '>assistant: text "It is 21 °C."',
    ]);
    expect(chat!.messages.at(-1)!.finishReason).toBe('stop');
  });

  it('reads the OpenAI Responses API: instructions, input items, function calls and outputs, reasoning', () => {
    const chat = chatOfCall({
      op_name: 'openai.responses.create',
      inputs: { model: 'o4-mini', instructions: 'Be brief.', input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] },
        { type: 'function_call', call_id: 'fc_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'fc_1', output: 'sunny' },
      ] },
      output: { object: 'response', output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Use the tool result.' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] },
      ] },
    });
    expect(chat?.format).toBe('openai-responses');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Weather?" | media audio audio/wav 3',
      'assistant: tool_call get_weather {"city":"Paris"}',
      'tool: tool_result get_weather fc_1 "sunny"',
      '>assistant: reasoning "Use the tool result."',
      '>assistant: text "Sunny."',
    ]);
    expect(brief(chatOfCall({ op_name: 'openai.responses.create', inputs: { input: 'Hi' }, output: { output_text: 'Hello' } })!.messages)).toEqual(['user: text "Hi"', '>assistant: text "Hello"']);
  });

  it('reads Anthropic messages: system blocks, tool_use, a user turn of tool results shown as tool, thinking', () => {
    const chat = chatOfCall({
      op_name: 'anthropic.messages.create',
      inputs: { model: 'claude-sonnet-4-5', system: [{ type: 'text', text: 'Be brief.' }], messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAAAAAA' } }, { type: 'text', text: 'What is this?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'lookup', input: { q: 'cat' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: [{ type: 'text', text: 'a cat' }] }] },
      ] },
      output: { type: 'message', role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'A cat.' }], stop_reason: 'end_turn' },
    });
    expect(chat?.format).toBe('anthropic');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: media image image/jpeg 6 | text "What is this?"',
      'assistant: tool_call lookup {"q":"cat"}',
      'tool: tool_result lookup tu_1 "a cat"',
      '>assistant: reasoning "hmm" | text "A cat."',
    ]);
    expect(chat!.messages.at(-1)!.finishReason).toBe('end_turn');
  });

  it("reads the Vercel AI SDK's options and result: prompt or messages, tool calls, tool results, a file", () => {
    const chat = chatOfCall({
      op_name: 'ai.generateText',
      inputs: { model: 'gpt-4o', system: 'Be brief.', messages: [
        { role: 'user', content: [{ type: 'text', text: 'Read this' }, { type: 'file', data: 'AAAA', mediaType: 'application/pdf' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'read', input: { page: 1 } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'text', value: 'page one' } }] },
      ] },
      output: { text: 'Done.', toolCalls: [], toolResults: [], finishReason: 'stop' },
    });
    expect(chat?.format).toBe('ai-sdk');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Read this" | media file application/pdf 3',
      'assistant: tool_call read {"page":1}',
      'tool: tool_result read t1 "page one"',
      '>assistant: text "Done."',
    ]);
    expect(brief(chatOfCall({ op_name: 'ai.streamText', inputs: { prompt: 'Hi' }, output: { text: '', toolCalls: [{ toolCallId: 'x', toolName: 'f', input: { a: 1 } }], toolResults: [{ toolCallId: 'x', toolName: 'f', output: 2 }] } })!.messages))
      .toEqual(['user: text "Hi"', '>assistant: tool_call f {"a":1}', '>tool: tool_result f x 2']);
  });

  it("reads an AI SDK run of several steps in order: all steps' messages (not the text before the tool calls), and a step's request and content", () => {
    const call = { toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } };
    const messages = [
      { role: 'assistant', content: [{ type: 'tool-call', ...call }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'json', value: { forecast: 'sunny' } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] },
    ];
    // as `ai` 7 ends an operation: text of the last step, tool calls and results of all steps, and the messages
    const run = chatOfCall({
      op_name: 'ai.generateText',
      inputs: { instructions: 'Be brief.', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      output: { text: 'Sunny.', toolCalls: [call], toolResults: [{ toolCallId: 'c1', toolName: 'get_weather', output: { forecast: 'sunny' } }], finishReason: 'stop', messages },
    });
    expect(brief(run!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Weather in Paris?"',
      '>assistant: tool_call get_weather {"city":"Paris"}',
      '>tool: tool_result get_weather c1 {"forecast":"sunny"}',
      '>assistant: text "Sunny."',
    ]);
    expect(run!.messages.at(-1)!.finishReason).toBe('stop');
    const step = chatOfCall({
      op_name: 'ai.streamText.doStream',
      inputs: { model: 'gpt-4o', prompt: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }] },
      output: { content: [{ type: 'reasoning', text: 'a tool' }, { type: 'tool-call', ...call }], finishReason: 'tool-calls' },
    });
    expect(step?.format).toBe('ai-sdk');
    expect(brief(step!.messages)).toEqual(['system: text "Be brief."', 'user: text "Weather in Paris?"', '>assistant: reasoning "a tool" | tool_call get_weather {"city":"Paris"}']);
  });

  it('reads a Mastra model generation (WeftExporter): the messages sent and the text and tool calls of the result', () => {
    const chat = chatOfCall({
      op_name: 'mastra.model_generation',
      inputs: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?', providerOptions: {} }] }] },
      output: { text: 'Sunny in Oslo', toolCalls: [{ toolCallId: 'c1', toolName: 'weather', args: { city: 'Oslo' } }] },
    });
    expect(chat?.format).toBe('ai-sdk');
    expect(brief(chat!.messages)).toEqual(['system: text "Be brief."', 'user: text "Weather in Oslo?"', '>assistant: text "Sunny in Oslo" | tool_call weather {"city":"Oslo"}']);
  });

  it('reads OTel GenAI messages as the span mapping stores them (parts, tool calls, responses, blobs, system instructions)', () => {
    const chat = chatOfCall({
      op_name: 'chat gpt-4o',
      inputs: { system_instructions: [{ type: 'text', content: 'Be brief.' }], messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        { role: 'tool', content: [{ type: 'tool_call_response', id: 'c1', response: 'rainy' }] },
        { role: 'user', content: [{ type: 'blob', modality: 'image', mime_type: 'image/png', content: 'AAAA' }] },
      ] },
      output: { messages: [{ role: 'assistant', content: 'Rainy.', finish_reason: 'stop' }] },
    });
    expect(chat?.format).toBe('otel-genai');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Weather?"',
      'assistant: tool_call get_weather {"city":"Paris"}',
      'tool: tool_result get_weather c1 "rainy"',
      'user: media image image/png 3',
      '>assistant: text "Rainy."',
    ]);
  });

  it('reads Gemini (@google/genai): system instruction, Contents with function calls and responses, media, thoughts, candidates', () => {
    const chat = chatOfCall({
      op_name: 'google_genai.chats.sendMessage',
      inputs: { model: 'gemini-2.5-flash', config: { systemInstruction: 'Be brief.', temperature: 0 }, contents: [
        { role: 'user', parts: [{ text: 'Weather here?' }, { inlineData: { mimeType: 'image/jpeg', data: 'AAAAAAAA' } }, { fileData: { mimeType: 'application/pdf', fileUri: 'gs://bucket/forecast.pdf' } }] },
        { role: 'model', parts: [{ functionCall: { id: 'fc1', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'fc1', name: 'get_weather', response: { output: 'sunny' } } }] },
      ] },
      output: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sun is out.', thought: true }, { text: 'Sunny.' }, { executableCode: { language: 'PYTHON', code: 'print(1)' } }] }, finishReason: 'STOP', index: 0 }], modelVersion: 'gemini-2.5-flash' },
    });
    expect({ format: chat?.format, messages: brief(chat!.messages), finishReason: chat!.messages.at(-1)!.finishReason }).toEqual({
      format: 'gemini',
      messages: [
        'system: text "Be brief."',
        'user: text "Weather here?" | media image image/jpeg 6 | media file application/pdf gs://bucket/forecast.pdf',
        'assistant: tool_call get_weather {"city":"Paris"}',
        'tool: tool_result get_weather fc1 {"output":"sunny"}',
        '>assistant: reasoning "Sun is out." | text "Sunny." | json {"executableCode":{"language":"PYTHON","code":"print(1)"}}',
      ],
      finishReason: 'STOP',
    });
    // contents as a string or a list of parts is one user turn; a running call has the request only
    const running = chatOfCall({ op_name: 'google_genai.models.generateContent', inputs: { model: 'gemini-2.5-flash', contents: ['Hi', { text: 'there' }] }, output: null, ended_at: null });
    expect(brief(running!.messages)).toEqual(['user: text "Hi" | text "there"']);
    expect(brief(chatOfCall({ op_name: 'google_genai.models.generateContentStream', inputs: { contents: 'Hi' }, output: { candidates: [{ content: { parts: [{ text: 'Hello' }] } }] } })!.messages)).toEqual(['user: text "Hi"', '>assistant: text "Hello"']);
    expect(chatOfCall({ op_name: 'google_genai.models.embedContent', inputs: { model: 'gemini-embedding-001', contents: ['a'] }, output: { embeddings: [{ dimensions: 4 }] } })).toBeNull();
  });

  it('answers null for a call that is not a conversation, and keeps unknown parts as JSON', () => {
    expect(chatOfCall({ op_name: 'add', inputs: { a: 1, b: 2 }, output: 3 })).toBeNull();
    expect(chatOfCall({ op_name: 'f', inputs: { messages: ['not', 'messages'] }, output: null })).toBeNull();
    expect(partOf({ type: 'hologram', x: 1 })).toEqual({ kind: 'json', value: { type: 'hologram', x: 1 } });
    // a running call: the request only
    expect(brief(chatOfCall({ op_name: 'openai.chat.completions.create', inputs: { messages: [{ role: 'user', content: 'Hi' }] }, output: null, ended_at: null })!.messages)).toEqual(['user: text "Hi"']);
  });

  it("reads RL trajectories' messages_and_choices (OpenAI messages and choices, a choice as the reply)", () => {
    const list = messageList([{ role: 'user', content: 'Move?' }, { role: 'assistant', content: 'e4' }]);
    expect(brief(list!)).toEqual(['user: text "Move?"', 'assistant: text "e4"']);
    const mixed = messagesAndChoices([
      { role: 'user', content: 'Add 2 and 3' },
      { index: 0, finish_reason: 'tool_calls', logprobs: null, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{"a":2,"b":3}' } }] } },
      { role: 'tool', tool_call_id: 'c1', content: '5' },
    ]);
    expect(brief(mixed)).toEqual(['user: text "Add 2 and 3"', '>assistant: tool_call calculator {"a":2,"b":3}', 'tool: tool_result calculator c1 5']);
    expect(mixed[1]!.finishReason).toBe('tool_calls');
  });
});

describe('media sizes and header facts', () => {
  it('counts base64 bytes, padding and a capture cut (…[truncated N chars]) included', () => {
    expect(base64Bytes('AAAA')).toBe(3);
    expect(base64Bytes('AAA=')).toBe(2);
    expect(base64Bytes('data:image/png;base64,AA==')).toBe(1);
    expect(base64Bytes(`${'A'.repeat(10)}…[truncated 30 chars]`)).toBe(30);
    expect(partOf({ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } })).toEqual({ kind: 'media', media: 'image', url: 'https://example.com/cat.png' });
  });

  it('reads model, input / output / cached / reasoning tokens, cost and time to first token from the summary', () => {
    const facts = chatFacts({
      inputs: { model: 'gpt-4o-mini' },
      summary: {
        usage: { 'gpt-4o-mini-2024-07-18': { input_tokens: 1200, prompt_tokens: 1200, output_tokens: 80, completion_tokens: 80, cache_read_input_tokens: 200, reasoning_tokens: 30 } },
        costs: { 'gpt-4o-mini-2024-07-18': { total_cost: 0.0002 } },
        time_to_first_token_ms: 42,
        'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      },
    });
    expect(facts).toEqual({ model: 'gpt-4o-mini-2024-07-18', inputTokens: 1200, outputTokens: 80, cachedTokens: 200, reasoningTokens: 30, costUsd: 0.0002, ttftMs: 42 });
    expect(chatFacts({ summary: {} })).toEqual({});
  });
});

describe('list and tree facts, filters in the URL', () => {
  it('previews inputs and output by their first text line, cut; tells model calls from others', () => {
    expect(preview({ question: 'What is\nweft?' })).toBe('What is');
    expect(preview({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi there' }] })).toBe('Hi there');
    expect(preview('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(preview({ n: 3 })).toBe('{"n":3}');
    const usage = { 'gpt-4o': { total_tokens: 5 } };
    expect(isLlmCall({ summary: { usage, 'gen_ai.response.model': 'gpt-4o' } }, 0)).toBe(true);
    expect(isLlmCall({ summary: { usage } }, 2)).toBe(false); // a parent's rolled-up usage
    expect(isLlmCall({ summary: { usage } }, 0)).toBe(true);
    expect(isLlmCall({ summary: { time_to_first_token_ms: 40 } }, 0)).toBe(true); // a stream left before its usage
    expect(isLlmCall({ summary: { usage, time_to_first_token_ms: 40, 'ai.response.model': 'gpt-4o' } }, 3)).toBe(false); // a streamText over its steps
    expect(modelsOf({ summary: { usage: { a: {}, b: {} } } })).toBe('a, b');
    expect(shortCount(1280)).toBe('1.3k');
  });

  it('round-trips the traces list filters through the URL query, only those set', () => {
    const f = { ...NO_FILTERS, op: 'agent', status: 'error', sinceMinutes: 60 };
    expect(filtersToQuery(f)).toEqual({ op: 'agent', status: 'error', since: '60' });
    expect(filtersFromQuery(filtersToQuery(f))).toEqual(f);
    expect(filtersFromQuery({ since: 'soon', text: 'paris' })).toEqual({ ...NO_FILTERS, text: 'paris' });
  });

  it('shows an exception sent as a plain string (the schema allows one) as its message', () => {
    expect(exceptionOf({ exception: 'boom' })).toEqual({ message: 'boom' });
    expect(exceptionOf({ exception: { type: 'ValueError', message: 'bad' } })).toEqual({ type: 'ValueError', message: 'bad' });
    expect(exceptionOf({ exception: null })).toBeNull();
  });
});
