// The precedence table over recorded attribute sets of each producer: one exchange, the same inputs, output and usage.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapAttributes } from '../../src/otel/attribute-table.js';
import { mapSpan } from '../../src/otel/genai-events.js';

const fixtures = JSON.parse(readFileSync(new URL('../../../../test/fixtures/otel/genai-producers.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

const EXPECTED_INPUTS = { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is 2+2?' }] };
const EXPECTED_USAGE = { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 };

const chat: [string, string][] = [
  ['gen_ai', 'gen_ai'],
  ['gen_ai_legacy', 'gen_ai_legacy'],
  ['openinference', 'openinference'],
  ['openllmetry', 'gen_ai_legacy'],
  ['vercel_ai_v5_doGenerate', 'vercel_ai'],
  ['vercel_ai_v4_outer', 'vercel_ai'],
];

describe('mapAttributes: one exchange as each producer records it', () => {
  it.each(chat)('%s maps to the same inputs, output, model and usage', (producer, convention) => {
    const mapped = mapAttributes(fixtures[producer]!);
    expect(mapped.inputs).toEqual(EXPECTED_INPUTS);
    const out = mapped.output as { messages: { role: string; content: unknown }[] };
    expect(out.messages.map((m) => ({ role: m.role, content: m.content }))).toEqual([{ role: 'assistant', content: '4' }]);
    expect(mapped.model).toBe('gpt-4o-mini');
    // the AI SDK's doGenerate span is one model request by its operation id (its outer span sums the steps)
    expect(mapped.usage).toEqual(producer === 'vercel_ai_v5_doGenerate' ? { ...EXPECTED_USAGE, requests: 1 } : EXPECTED_USAGE);
    expect(mapped.conventions).toContain(convention);
  });

  it('leaves the attributes read into inputs and output out of attributes, and keeps the rest', () => {
    const mapped = mapAttributes(fixtures.gen_ai!);
    expect(mapped.attributes).not.toHaveProperty('gen_ai.input.messages');
    expect(mapped.attributes).not.toHaveProperty('gen_ai.output.messages');
    expect(mapped.attributes['gen_ai.usage.input_tokens']).toBe(12);
    const legacy = mapAttributes(fixtures.gen_ai_legacy!);
    expect(Object.keys(legacy.attributes).filter((k) => k.startsWith('gen_ai.prompt.'))).toEqual([]);
  });

  it('takes the response facts (gen_ai.response.*, else the Vercel AI SDK ai.response.*) out of attributes, for the summary', () => {
    const mapped = mapAttributes({
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.id': 'chatcmpl-9',
      'gen_ai.response.finish_reasons': ['stop', 'length'],
    });
    expect(mapped.response).toEqual({ 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.response.id': 'chatcmpl-9', 'gen_ai.response.finish_reasons': ['stop', 'length'] });
    expect(mapped.attributes).toEqual({ 'gen_ai.request.model': 'gpt-4o-mini' });
    const vercel = mapAttributes({ 'ai.response.model': 'm-1', 'ai.response.id': 'r-1', 'ai.response.finishReason': 'tool-calls' });
    expect(vercel.response).toEqual({ 'gen_ai.response.model': 'm-1', 'gen_ai.response.id': 'r-1', 'gen_ai.response.finish_reasons': ['tool-calls'] });
    expect(mapAttributes({ 'gen_ai.response.finish_reasons': [1, ''], 'gen_ai.response.id': 3 }).response).toEqual({ 'gen_ai.response.finish_reasons': [''] });
  });

  it('reads OpenLLMetry workflow spans (traceloop.entity.*) as inputs and output', () => {
    const mapped = mapAttributes(fixtures.openllmetry_workflow!);
    expect(mapped.inputs).toEqual({ args: ['What is 2+2?'], kwargs: {} });
    expect(mapped.output).toBe('4');
    expect(mapped.usage).toBeUndefined();
    expect(mapped.conventions).toEqual(['openllmetry']);
  });

  it('prefers the current GenAI attributes over an older convention on the same span', () => {
    const mapped = mapAttributes({
      ...fixtures.gen_ai_legacy!,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'new' }] }]),
      'gen_ai.usage.input_tokens': 99,
    });
    expect(mapped.inputs).toEqual({ messages: [{ role: 'user', content: 'new' }] });
    expect(mapped.usage?.prompt_tokens).toBe(99);
  });

  it('keeps non-text parts as parts, and never throws on odd values', () => {
    const parts = [{ type: 'text', content: 'see' }, { type: 'tool_call', id: 'c1', name: 'f', arguments: { x: 1 } }];
    const mapped = mapAttributes({ 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts }]) });
    expect(mapped.output).toEqual({ messages: [{ role: 'assistant', content: parts }] });
    for (const odd of [{ 'input.value': '{not json' }, { 'gen_ai.input.messages': 'null' }, { 'ai.prompt': 42 }, { 'gen_ai.usage.input_tokens': 'many' }]) {
      expect(() => mapAttributes(odd)).not.toThrow();
    }
    expect(mapAttributes({ 'input.value': '{not json' }).inputs).toEqual({ input: '{not json' });
    expect(mapAttributes({ 'gen_ai.usage.input_tokens': 'many' }).usage).toBeUndefined();
  });
});

describe('mapSpan: messages in span events when the attributes hold none', () => {
  const ev = (name: string, attributes: Record<string, unknown>) => ({ name, timeMs: 0, attributes });

  it('reads gen_ai.*.message and gen_ai.choice events (v1.28-v1.36), in order, tool calls and ids kept', () => {
    const mapped = mapSpan({ attributes: { 'gen_ai.request.model': 'gpt-4o' }, events: [
      ev('gen_ai.system.message', { content: 'Be brief.' }),
      ev('gen_ai.user.message', { content: 'What is 2+2?' }),
      ev('gen_ai.assistant.message', { tool_calls: JSON.stringify([{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }]) }),
      ev('gen_ai.tool.message', { content: '4', id: 'c1' }),
      ev('gen_ai.choice', { index: 0, finish_reason: 'stop', message: JSON.stringify({ role: 'assistant', content: '4' }) }),
    ] });
    expect(mapped.inputs).toEqual({ messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }] },
      { role: 'tool', content: '4', id: 'c1', tool_call_id: 'c1' },
    ] });
    expect(mapped.output).toEqual({ messages: [{ role: 'assistant', content: '4', finish_reason: 'stop' }] });
  });

  it('reads the v1.37 operation details event and the older content events; attributes win over events', () => {
    const input = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'hello' }] }]);
    const details = mapSpan({ attributes: {}, events: [ev('gen_ai.client.inference.operation.details', { 'gen_ai.input.messages': input, 'gen_ai.output.messages': output })] });
    expect(details.inputs).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(details.output).toEqual({ messages: [{ role: 'assistant', content: 'hello' }] });
    const old = mapSpan({ attributes: {}, events: [ev('gen_ai.content.prompt', { 'gen_ai.prompt': input }), ev('gen_ai.content.completion', { 'gen_ai.completion': output })] });
    expect(old.inputs).toEqual(details.inputs);
    expect(mapSpan({ attributes: { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: 'attr' }]) }, events: [ev('gen_ai.user.message', { content: 'event' })] }).inputs)
      .toEqual({ messages: [{ role: 'user', content: 'attr' }] });
  });
});
