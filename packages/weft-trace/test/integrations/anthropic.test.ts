// wrapAnthropic against the real @anthropic-ai/sdk and a loopback fake of the Messages API: results unchanged, usage with cache counts, streams, errors.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { op, wrapAnthropic } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { collect, useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

function clients(): { raw: Anthropic; wrapped: Anthropic } {
  const raw = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake().anthropicURL, maxRetries: 0 });
  return { raw, wrapped: wrapAnthropic(raw) };
}

const MODEL = 'claude-haiku-4-5';
// input_tokens 1000 + cache writes 300 + cache reads 200: Anthropic reports the cache counts on top of input_tokens.
const USAGE = {
  prompt_tokens: 1500,
  input_tokens: 1500,
  completion_tokens: 80,
  output_tokens: 80,
  total_tokens: 1580,
  requests: 1,
  cache_read_input_tokens: 200,
  cache_creation_input_tokens: 300,
};
const body = (model = MODEL): Anthropic.MessageCreateParamsNonStreaming => ({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hi' }] });

describe('wrapAnthropic', () => {
  it('messages.create returns what the SDK returns and records the message, usage with cache counts and attributes', async () => {
    const { raw, wrapped } = clients();
    let got: unknown;
    const calls = await traced(server(), 'an-create', () =>
      op(async function agent() {
        got = await wrapped.messages.create(body());
      })(),
    );
    expect(got).toEqual(await raw.messages.create(body()));
    const c = one(calls, 'anthropic.messages.create');
    expect(c.parent_id).toBe(one(calls, 'agent').id);
    expect(c.inputs).toEqual(body());
    expect(c.output).toMatchObject({ id: 'msg_1', content: [{ type: 'text', text: streamedText(5) }] });
    expect(c.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': MODEL });
    expect(c.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['end_turn'] });
    expect((c.summary as Record<string, unknown>)['request_id']).toMatch(/^req_/);
  });

  it('messages.create with stream: true yields the same events and records the assembled message', async () => {
    const { raw, wrapped } = clients();
    const req = { ...body(), stream: true as const };
    let events: unknown[] = [];
    const calls = await traced(server(), 'an-stream', async () => {
      events = await collect(await wrapped.messages.create(req));
    });
    expect(events).toEqual(await collect(await raw.messages.create(req)));
    const c = one(calls, 'anthropic.messages.create');
    expect(c.output).toMatchObject({ content: [{ type: 'text', text: streamedText(5) }], stop_reason: 'end_turn' });
    expect(c.summary).toMatchObject({ usage: { [MODEL]: USAGE } });
    expect(typeof (c.summary as Record<string, unknown>)['time_to_first_token_ms']).toBe('number');
  });

  it('tee() of a streamed messages.create: both branches yield the same events, and the call is recorded with usage', async () => {
    const { raw, wrapped } = clients();
    const req = { ...body(), stream: true as const };
    let branches: unknown[][] = [];
    const calls = await traced(server(), 'an-tee', async () => {
      const [left, right] = (await wrapped.messages.create(req)).tee();
      branches = [await collect(left), await collect(right)];
    });
    const expected = await collect(await raw.messages.create(req));
    expect(branches).toEqual([expected, expected]);
    const c = one(calls, 'anthropic.messages.create');
    expect(c.output).toMatchObject({ content: [{ type: 'text', text: streamedText(5) }], stop_reason: 'end_turn' });
    expect(c.summary).toMatchObject({ status: 'success', usage: { [MODEL]: USAGE } });
  });

  it('messages.stream keeps its events and finalMessage(), and records the tool use with its parsed input', async () => {
    const { wrapped } = clients();
    const texts: string[] = [];
    let final: Anthropic.Message | undefined;
    const calls = await traced(server(), 'an-helper', async () => {
      const s = wrapped.messages.stream(body());
      s.on('text', (t) => texts.push(t));
      await s.finalMessage();
      final = await wrapped.messages.stream(body('claude-tool')).finalMessage();
    });
    expect(texts.join('')).toBe(streamedText(5));
    expect(final!.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }]);
    const [text, tool] = calls.filter((c) => c.op_name === 'anthropic.messages.stream') as [CallRecord, CallRecord];
    expect(text.output).toMatchObject({ content: [{ type: 'text', text: streamedText(5) }] });
    expect(tool.output).toMatchObject({ content: [{ type: 'tool_use', input: { city: 'Paris' } }], stop_reason: 'tool_use' });
    expect(tool.summary).toMatchObject({ usage: { 'claude-tool': { cache_read_input_tokens: 200 } } });
    expect(calls.filter((c) => c.op_name === 'anthropic.messages.create')).toHaveLength(0);
  });

  it('break out of a stream ends the call as cancelled with the input usage received so far', async () => {
    const { wrapped } = clients();
    const calls = await traced(server(), 'an-break', async () => {
      let n = 0;
      for await (const _ of await wrapped.messages.create({ ...body(), stream: true })) if (++n === 3) break;
    });
    const c = one(calls, 'anthropic.messages.create');
    expect(c.summary).toMatchObject({ status: 'cancelled', usage: { [MODEL]: { input_tokens: 1500, cache_read_input_tokens: 200, output_tokens: 1 } } });
  });

  it.each([
    [400, Anthropic.BadRequestError],
    [429, Anthropic.RateLimitError],
    [500, Anthropic.InternalServerError],
  ])('records an HTTP %i and rethrows the SDK error unchanged', async (status, cls) => {
    const { wrapped } = clients();
    let thrown: unknown;
    const calls = await traced(server(), `an-${status}`, async () => {
      try {
        await wrapped.messages.create(body(`fail-${status}`));
      } catch (err) {
        thrown = err;
      }
    });
    expect(thrown).toBeInstanceOf(cls);
    const c = one(calls, 'anthropic.messages.create');
    expect(c.exception).toMatchObject({ type: (thrown as Error).name });
  });

  it('a stream cut mid-way is recorded as an error', async () => {
    const { wrapped } = clients();
    let thrown: unknown;
    const calls = await traced(server(), 'an-cut', async () => {
      try {
        await collect(await wrapped.messages.create({ ...body('claude-cut'), stream: true }));
      } catch (err) {
        thrown = err;
      }
    });
    expect(thrown).toBeInstanceOf(Error);
    expect(one(calls, 'anthropic.messages.create').exception).toMatchObject({ type: (thrown as Error).name, message: expect.any(String) });
  });

  it('keeps instanceof and other members; wrapping twice is a no-op', () => {
    const { raw, wrapped } = clients();
    expect(wrapped).toBeInstanceOf(Anthropic);
    expect(wrapped.baseURL).toBe(raw.baseURL);
    expect(wrapAnthropic(wrapped)).toBe(wrapped);
  });
});
