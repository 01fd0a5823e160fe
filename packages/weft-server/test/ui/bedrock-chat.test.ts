// The chat view reads weft's Bedrock calls (wrapBedrock): Converse messages and content blocks, and each InvokeModel body family.
import { describe, expect, it } from 'vitest';
import { chatOfCall } from '../../src/ui/chat/chat-of-call.js';
import type { ChatMessage } from '../../src/ui/chat/chat-message.js';

const attributes = { 'gen_ai.provider.name': 'aws.bedrock' };
/** Role and a short text per part, as chat-normalize.test.ts writes them. */
const brief = (messages: readonly ChatMessage[]): string[] =>
  messages.map((m) => `${m.reply ? '>' : ''}${m.role}: ${m.parts.map((p) => (p.kind === 'text' || p.kind === 'reasoning' ? `${p.kind} ${JSON.stringify(p.text)}` : p.kind === 'tool_call' ? `tool_call ${p.name} ${p.id ?? ''} ${JSON.stringify(p.arguments)}` : p.kind === 'tool_result' ? `tool_result ${p.name ?? ''} ${p.id ?? ''} ${JSON.stringify(p.content)}` : p.kind)).join(' | ')}${m.finishReason ? ` (${m.finishReason})` : ''}`);

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
    expect(chat?.format).toBe('bedrock');
    expect(brief(chat!.messages)).toEqual([
      'system: text "Be brief."',
      'user: text "Weather in Paris?" | media',
      'assistant: reasoning "Use the tool." | tool_call get_weather tooluse_1 {"city":"Paris"}',
      'tool: tool_result get_weather tooluse_1 {"temp":21}',
      '>assistant: text "It is 21 °C." (end_turn)',
    ]);
  });

  it.each([
    ['Anthropic', { anthropic_version: 'bedrock-2023-05-31', system: 'Be brief.', messages: [{ role: 'user', content: 'Say hi' }] }, { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi.' }], stop_reason: 'end_turn' }, ['system: text "Be brief."', 'user: text "Say hi"', '>assistant: text "Hi." (end_turn)']],
    ['Nova', { schemaVersion: 'messages-v1', system: [{ text: 'Be brief.' }], messages: [{ role: 'user', content: [{ text: 'Say hi' }] }] }, { output: { message: { role: 'assistant', content: [{ text: 'Hi.' }] } }, stopReason: 'end_turn' }, ['system: text "Be brief."', 'user: text "Say hi"', '>assistant: text "Hi." (end_turn)']],
    ['Llama', { prompt: 'Say hi', max_gen_len: 64 }, { generation: 'Hi.', stop_reason: 'stop' }, ['user: text "Say hi"', '>assistant: text "Hi." (stop)']],
    ['Titan', { inputText: 'Say hi' }, { inputTextTokenCount: 3, results: [{ outputText: 'Hi.', completionReason: 'FINISH' }] }, ['user: text "Say hi"', '>assistant: text "Hi." (FINISH)']],
  ])('InvokeModel with a %s body: the request body and the answer', (_family, body, output, expected) => {
    const chat = chatOfCall({ op_name: 'bedrock.invoke_model', attributes, inputs: { modelId: 'm', contentType: 'application/json', body }, output });
    expect(chat?.format).toBe('bedrock');
    expect(brief(chat!.messages)).toEqual(expected);
  });

  it('a body of another shape is not a chat (the detail shows JSON)', () => {
    expect(chatOfCall({ op_name: 'bedrock.invoke_model', attributes, inputs: { modelId: 'cohere.embed-english-v3', body: { texts: ['a'] } }, output: { embeddings: [[0.1]] } })).toBeNull();
  });
});
