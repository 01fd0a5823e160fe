// @weft-test: runtime
// wrapAISDK against the real `ai` package (6, and 7 where Node >= 22) with @ai-sdk/openai pointed at the loopback fake: results unchanged, tool calls as child calls, usage over steps, errors.
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { op, wrapAISDK } from '../../src/index.js';
import { expectTwoStepRun, expectTwoSteps } from 'weft-test-kit/ai-sdk-steps.js';
import { aiMajors } from 'weft-test-kit/ai-majors.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

const MAJORS = await aiMajors();

const TOOL_USAGE = { 'gpt-4o-tool-2024-07-18': { prompt_tokens: 2400, completion_tokens: 160, cache_read_input_tokens: 400, reasoning_tokens: 60, requests: 2 } };

describe.each(MAJORS)('wrapAISDK on $label', ({ sdk: { ai, createOpenAI } }) => {
  const provider = (): ReturnType<typeof createOpenAI> => createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL });
  const w = wrapAISDK(ai);
  const weather = ai.tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: 'sunny' }),
  });
  const toolOptions = () => ({ model: provider().chat('gpt-4o-tool'), prompt: 'Weather in Paris?', tools: { get_weather: weather }, stopWhen: ai.stepCountIs(3), maxRetries: 0 });

  it('generateText: same result as unwrapped, tool executions as child calls, usage summed over steps', async () => {
    const options = toolOptions();
    let got: ai.GenerateTextResult<{ get_weather: typeof weather }, never> | undefined;
    const calls = await traced(server(), 'ai-gen', async () => {
      got = await w.generateText(options);
    });
    const plain = await ai.generateText(options);
    expect(got!.text).toBe(plain.text);
    expect(got!.steps.length).toBe(2);
    const c = one(calls, 'ai.generateText');
    const tool = one(calls, 'ai.tool.get_weather');
    expect(tool.parent_id).toBe(c.id);
    expect(tool.inputs).toEqual({ input: { city: 'Paris' } });
    expect(tool.output).toEqual({ city: 'Paris', forecast: 'sunny' });
    expect(c.inputs).toMatchObject({ model: 'gpt-4o-tool', prompt: 'Weather in Paris?' });
    expect(c.output).toMatchObject({ text: streamedText(5), finishReason: 'stop' });
    expect(c.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-tool' });
    expect(c.summary).toMatchObject({ usage: TOOL_USAGE });
  });

  it('streamText: the stream is unchanged and the call ends in onFinish (the caller\'s onFinish still runs) with time to first token', async () => {
    let finished = 0;
    let text = '';
    const calls = await traced(server(), 'ai-stream', async () => {
      const r = w.streamText({ model: provider().chat('gpt-4o-mini'), prompt: 'hi', onFinish: () => void finished++, maxRetries: 0 });
      for await (const t of r.textStream) text += t;
    });
    expect(text).toBe(streamedText(5));
    expect(finished).toBe(1);
    const c = one(calls, 'ai.streamText');
    expect(c.output).toMatchObject({ text: streamedText(5) });
    expect(c.summary).toMatchObject({ usage: { 'gpt-4o-mini-2024-07-18': { prompt_tokens: 1200, requests: 1 } } });
    expect(typeof (c.summary as Record<string, unknown>)['time_to_first_token_ms']).toBe('number');
  });

  it('streamText with tools: tool executions as child calls, and the streamed usage summed over steps', async () => {
    let text = '';
    const calls = await traced(server(), 'ai-stream-tool', async () => {
      const r = w.streamText(toolOptions());
      for await (const t of r.textStream) text += t;
    });
    expect(text).toBe(streamedText(5));
    const c = one(calls, 'ai.streamText');
    expect(one(calls, 'ai.tool.get_weather')).toMatchObject({ parent_id: c.id, inputs: { input: { city: 'Paris' } }, output: { city: 'Paris', forecast: 'sunny' } });
    expect(c.output).toMatchObject({ text: streamedText(5), finishReason: 'stop' });
    expect(c.summary).toMatchObject({ usage: TOOL_USAGE });
  });

  for (const streamed of [false, true]) {
    it(`${streamed ? 'streamText' : 'generateText'} with a tool and two steps: each step's model request a call of its own, the tool between them, usage once, the chat in order`, () =>
      expectTwoStepRun(server(), `ai-steps-${streamed}`, w, streamed, toolOptions()));
  }

  it('concurrent generateText and streamText under one op: each operation has its own steps, and the op counts the four requests once', async () => {
    const calls = await traced(server(), 'ai-steps-concurrent', () =>
      op(async function agent() {
        await Promise.all([w.generateText(toolOptions()), w.streamText(toolOptions()).consumeStream()]);
      })(),
    );
    const agent = one(calls, 'agent');
    expectTwoSteps(calls, agent, 'ai.generateText', 'ai.generateText.doGenerate');
    expectTwoSteps(calls, agent, 'ai.streamText', 'ai.streamText.doStream');
    expect(agent.summary).toMatchObject({ usage: { 'gpt-4o-tool-2024-07-18': { prompt_tokens: 4800, completion_tokens: 320, requests: 4 } } });
  });

  it('embed is recorded with its dimensions and usage', async () => {
    const calls = await traced(server(), 'ai-embed', async () => {
      const r = await w.embed({ model: provider().embedding('text-embedding-3-small'), value: 'hello', maxRetries: 0 });
      expect(r.embedding).toHaveLength(8);
    });
    const c = one(calls, 'ai.embed');
    expect(c.output).toEqual({ dimensions: 8 });
    expect(c.summary).toMatchObject({ usage: { 'text-embedding-3-small': { prompt_tokens: 12, requests: 1 } } });
  });

  it('an API error is recorded and rethrown unchanged', async () => {
    let thrown: unknown;
    const calls = await traced(server(), 'ai-err', async () => {
      try {
        await w.generateText({ model: provider().chat('fail-400'), prompt: 'hi', maxRetries: 0 });
      } catch (err) {
        thrown = err;
      }
    });
    expect(ai.APICallError.isInstance(thrown)).toBe(true);
    expect(one(calls, 'ai.generateText').exception).toMatchObject({ type: (thrown as Error).name });
  });

  it('a streamText API error is recorded, and the caller\'s onError still sees it', async () => {
    const seen: unknown[] = [];
    const calls = await traced(server(), 'ai-stream-err', async () => {
      const r = w.streamText({ model: provider().chat('fail-400'), prompt: 'hi', maxRetries: 0, onError: ({ error }) => void seen.push(error) });
      await r.consumeStream();
    });
    expect(seen).toHaveLength(1);
    expect(ai.APICallError.isInstance(seen[0])).toBe(true);
    expect(one(calls, 'ai.streamText').exception).toMatchObject({ type: (seen[0] as Error).name, message: (seen[0] as Error).message });
  });
});
