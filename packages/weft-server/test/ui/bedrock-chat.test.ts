// The chat view reads weft's Bedrock calls (wrapBedrock): Converse messages and content blocks, and each InvokeModel body family.
import { describe, expect, it } from 'vitest';
import { chatOfCall } from '../../src/ui/chat/chat-of-call.js';
import type { ChatMessage } from '../../src/ui/chat/chat-message.js';
import { brief } from './chat-brief.js';

const attributes = { 'gen_ai.provider.name': 'aws.bedrock' };
const finishReasons = (messages: readonly ChatMessage[]): (string | undefined)[] => messages.filter((m) => m.reply).map((m) => m.finishReason);

describe('chatOfCall for Bedrock calls', () => {
  it('Converse: system, the tool use and its result (named after the call), reasoning, an image, the reply with its stop reason', () => {
    const chat = chatOfCall({
      op_name: 'bedrock.converse',
      attributes,
      inputs: {
        modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
        system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
        messages: [
          { role: 'user', content: [{ text: 'Weather in Paris?' }, { image: { format: 'png', source: { bytes: 'AAAA' } } }] },
          { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'Use the tool.' } } }, { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] },
          { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ json: { temp: 21 } }], status: 'success' } }] },
        ],
      },
      output: { output: { message: { role: 'assistant', content: [{ text: 'It is 21 °C.' }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    });
    const lines = ['system: text "Be brief."', 'user: text "Weather in Paris?" | media image image/png 3'];
    lines.push('assistant: reasoning "Use the tool." | tool_call get_weather {"city":"Paris"}', 'tool: tool_result get_weather tooluse_1 {"temp":21}', '>assistant: text "It is 21 °C."');
    expect({ format: chat?.format, lines: brief(chat!.messages) }).toEqual({ format: 'bedrock', lines });
    expect(finishReasons(chat!.messages)).toEqual(['end_turn']);
  });

  it.each([
    ['Anthropic', { anthropic_version: 'bedrock-2023-05-31', system: 'Be brief.', messages: [{ role: 'user', content: 'Say hi' }] }, { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi.' }], stop_reason: 'end_turn' }, ['system: text "Be brief."', 'user: text "Say hi"', '>assistant: text "Hi."'], 'end_turn'],
    ['Nova', { schemaVersion: 'messages-v1', system: [{ text: 'Be brief.' }], messages: [{ role: 'user', content: [{ text: 'Say hi' }] }] }, { output: { message: { role: 'assistant', content: [{ text: 'Hi.' }] } }, stopReason: 'end_turn' }, ['system: text "Be brief."', 'user: text "Say hi"', '>assistant: text "Hi."'], 'end_turn'],
    ['Llama', { prompt: 'Say hi', max_gen_len: 64 }, { generation: 'Hi.', stop_reason: 'stop' }, ['user: text "Say hi"', '>assistant: text "Hi."'], 'stop'],
    ['Titan', { inputText: 'Say hi' }, { inputTextTokenCount: 3, results: [{ outputText: 'Hi.', completionReason: 'FINISH' }] }, ['user: text "Say hi"', '>assistant: text "Hi."'], 'FINISH'],
  ])('InvokeModel with a %s body: the request body and the answer', (_family, body, output, expected, reason) => {
    const chat = chatOfCall({ op_name: 'bedrock.invoke_model', attributes, inputs: { modelId: 'm', contentType: 'application/json', body }, output });
    expect(chat?.format).toBe('bedrock');
    expect(brief(chat!.messages)).toEqual(expected);
    expect(finishReasons(chat!.messages)).toEqual([reason]);
  });

  it('a body of another shape is not a chat (the detail shows JSON)', () => {
    expect(chatOfCall({ op_name: 'bedrock.invoke_model', attributes, inputs: { modelId: 'cohere.embed-english-v3', body: { texts: ['a'] } }, output: { embeddings: [[0.1]] } })).toBeNull();
  });
});
