// @weft-test: runtime node22
// aiSDKTelemetry() registered with `ai` 7's registerTelemetry (Node >= 22: the runtime scope): the calls wrapAISDK records, without wrapping; once when both routes see an operation.
import { createOpenAI } from 'ai-sdk-openai-v4';
import * as ai from 'ai-v7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSDKTelemetry, op, wrapAISDK } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { expectTwoStepRun } from 'weft-test-kit/ai-sdk-steps.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

// the integrations list is a global the `ai` 6 in other files reads too: registered for this file only
let before: typeof globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
beforeAll(() => {
  before = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
  ai.registerTelemetry(aiSDKTelemetry());
});
afterAll(() => {
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = before;
});

const provider = (): ReturnType<typeof createOpenAI> => createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL });
const lookup = op(async function lookup(city: string) {
  return { city, forecast: 'sunny' };
});
const weather = ai.tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => lookup(city),
});
const toolOptions = () => ({ model: provider().chat('gpt-4o-tool'), prompt: 'Weather in Paris?', tools: { get_weather: weather }, stopWhen: ai.isStepCount(3), maxRetries: 0 });
const TOOL_USAGE = { 'gpt-4o-tool-2024-07-18': { prompt_tokens: 2400, completion_tokens: 160, cache_read_input_tokens: 400, reasoning_tokens: 60, requests: 2 } };

/** What both routes must record alike of a call: op name, attributes, output, summary (less the timings), the model input. */
function shape(c: CallRecord): unknown {
  const { time_to_first_token_ms: _t, latency_ms: _l, weave: _w, ...summary } = (c.summary ?? {}) as Record<string, unknown>;
  return { op_name: c.op_name, attributes: c.attributes, output: c.output, summary, model: (c.inputs as { model?: unknown }).model };
}

describe('aiSDKTelemetry on ai 7', () => {
  it('generateText unwrapped: the call wrapAISDK records (op, attributes, output, usage over steps), under the running call, with the tool as a child', async () => {
    let text = '';
    const calls = await traced(server(), 'ait-gen', () =>
      op(async function agent() {
        text = (await ai.generateText(toolOptions())).text;
      })(),
    );
    expect(text).toBe(streamedText(5));
    const c = one(calls, 'ai.generateText');
    expect(c.parent_id).toBe(one(calls, 'agent').id);
    const tool = one(calls, 'ai.tool.get_weather');
    expect(tool).toMatchObject({ parent_id: c.id, inputs: { input: { city: 'Paris' } }, output: { city: 'Paris', forecast: 'sunny' } });
    expect(one(calls, 'lookup').parent_id).toBe(tool.id);
    expect(c.inputs).toMatchObject({ messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(c.summary).toMatchObject({ usage: TOOL_USAGE, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(one(calls, 'agent').summary).toMatchObject({ usage: TOOL_USAGE });

    const wrapper = await traced(server(), 'ait-gen-wrapped', () => wrapAISDK(ai).generateText({ ...toolOptions(), telemetry: { isEnabled: false } }));
    expect(shape(c)).toEqual(shape(one(wrapper, 'ai.generateText')));
  });

  for (const streamed of [false, true]) {
    it(`${streamed ? 'streamText' : 'generateText'} unwrapped with a tool and two steps: each step's model request a call of its own, the tool between them, usage once, the chat in order`, () =>
      expectTwoStepRun(server(), `ait-steps-${streamed}`, ai, streamed, toolOptions()));
  }

  it('streamText unwrapped: the stream is unchanged, and the call records text, streamed usage and time to first token', async () => {
    let text = '';
    let ended = 0;
    const calls = await traced(server(), 'ait-stream', async () => {
      const r = ai.streamText({ model: provider().chat('gpt-4o-mini'), prompt: 'hi', maxRetries: 0, onEnd: () => void ended++ });
      for await (const t of r.textStream) text += t;
    });
    expect(text).toBe(streamedText(5));
    expect(ended).toBe(1);
    const c = one(calls, 'ai.streamText');
    expect(c.output).toMatchObject({ text: streamedText(5), finishReason: 'stop' });
    expect(c.summary).toMatchObject({ usage: { 'gpt-4o-mini-2024-07-18': { prompt_tokens: 1200, completion_tokens: 80, requests: 1 } } });
    expect((c.summary as Record<string, unknown>)['time_to_first_token_ms']).toEqual(expect.any(Number));
  });

  it('an API error is recorded on the call and reaches the caller unchanged; embed records dimensions and usage', async () => {
    let thrown: unknown;
    const calls = await traced(server(), 'ait-err', async () => {
      await ai.generateText({ model: provider().chat('fail-400'), prompt: 'hi', maxRetries: 0 }).catch((err: unknown) => (thrown = err));
      await ai.embed({ model: provider().embedding('text-embedding-3-small'), value: 'hello', maxRetries: 0 });
    });
    expect(ai.APICallError.isInstance(thrown)).toBe(true);
    expect(one(calls, 'ai.generateText').exception).toMatchObject({ type: (thrown as Error).name, message: (thrown as Error).message });
    const e = one(calls, 'ai.embed');
    expect(e.output).toEqual({ dimensions: 8 });
    expect(e.summary).toMatchObject({ usage: { 'text-embedding-3-small': { prompt_tokens: 12, requests: 1 } } });
  });

  it('one model call when both routes see it: wrapAISDK with the integration registered, or the integration given twice', async () => {
    const calls = await traced(server(), 'ait-both', () =>
      op(async function agent() {
        await wrapAISDK(ai).generateText(toolOptions());
        await ai.generateText({ ...toolOptions(), telemetry: { integrations: [aiSDKTelemetry(), aiSDKTelemetry()] } });
      })(),
    );
    const agent = one(calls, 'agent');
    const ops = calls.filter((c) => c.parent_id === agent.id).map((c) => c.op_name);
    expect(ops).toEqual(['ai.generateText', 'ai.generateText']);
    expect(calls.filter((c) => c.op_name === 'ai.tool.get_weather')).toHaveLength(2);
    const twice = { ...TOOL_USAGE['gpt-4o-tool-2024-07-18'], prompt_tokens: 4800, completion_tokens: 320, cache_read_input_tokens: 800, reasoning_tokens: 120, requests: 4 };
    expect(agent.summary).toMatchObject({ usage: { 'gpt-4o-tool-2024-07-18': twice } });
  });
});
