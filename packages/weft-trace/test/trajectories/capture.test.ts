// trajectory(): rollouts through each wrapper (real SDKs against the loopback fake APIs) give the exact messages_and_choices and tools; helpers; groups.
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import * as ai from 'ai';
import OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { addLog, addMetric, gatherTrajectoryGroups, setReward, trajectory, wrapAISDK, wrapAnthropic, wrapOpenAI, type Trajectory } from '../../src/index.js';
import { collect, useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText, tokenLogprob } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { responsesExchange } from '../../src/trajectories/openai-convert.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();
const TEXT = streamedText(5);
const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TOOLS: OpenAI.ChatCompletionFunctionTool[] = [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: WEATHER } }];
const CALL_1 = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const openai = (): OpenAI => wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));

/** Runs `fn` as a captured rollout under init() and answers its trajectory and the recorded calls. */
async function capture(label: string, fn: () => Promise<unknown>): Promise<{ t: Trajectory; calls: Awaited<ReturnType<typeof traced>> }> {
  let t: Trajectory | undefined;
  const calls = await traced(server(), label, async () => {
    t = (await trajectory(fn, { name: 'rollout' }).capture()).trajectory;
  });
  return { t: t!, calls };
}

describe('trajectory(): OpenAI chat completions', () => {
  it('a tool loop: each request adds its new messages and the choice as returned; tools, reward, metrics, logs, start time, trace ids', async () => {
    const client = openai();
    const got: unknown[] = [];
    const before = new Date().toISOString();
    const { t, calls } = await capture('traj-chat', async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }];
      const r1 = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS });
      messages.push(r1.choices[0]!.message, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' });
      const r2 = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS });
      got.push(r1.choices[0], r2.choices[0]);
      setReward(0.75);
      addMetric('turns', 2);
      addMetric('solved', true);
      addLog('asked the weather tool');
    });
    expect(t.messages_and_choices).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      json(got[0]),
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      json(got[1]),
    ]);
    expect((got[0] as { message: { tool_calls: unknown } }).message.tool_calls).toEqual([CALL_1]);
    expect(t.tools).toEqual(TOOLS);
    expect(t.additional_histories).toBeUndefined();
    expect(t).toMatchObject({ reward: 0.75, metrics: { turns: 2, solved: true }, logs: ['asked the weather tool'] });
    expect(t.start_time! >= before).toBe(true);
    const root = one(calls, 'rollout');
    expect(t.metadata).toEqual({ project_id: root.project_id, trace_id: root.trace_id, call_id: root.id });
  });

  it('streamed with logprobs: the folded choice keeps every token logprob, as the unstreamed one holds them', async () => {
    const client = openai();
    let whole: unknown;
    const { t } = await capture('traj-stream', async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Say hi' }];
      await collect(await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true, stream: true }));
      whole = (await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true })).choices[0];
    });
    const logprobs = { content: ['w0', ' w1', ' w2', ' w3', ' w4'].map(tokenLogprob), refusal: null };
    expect(t.messages_and_choices).toEqual([
      { role: 'user', content: 'Say hi' },
      { index: 0, message: { role: 'assistant', content: TEXT, refusal: null }, finish_reason: 'stop', logprobs },
    ]);
    // the second request repeats the first's messages but not its answer: a conversation of its own
    expect(t.additional_histories).toEqual([{ messages_and_choices: [{ role: 'user', content: 'Say hi' }, json(whole)] }]);
    expect((whole as { logprobs: unknown }).logprobs).toEqual(logprobs);
    expect(t.reward).toBe(0);
  });

  it('sub-agents: a conversation that does not continue the first goes to additional_histories, with its tools', async () => {
    const client = openai();
    const { t } = await capture('traj-sub', async () => {
      const main: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Plan' }];
      const a = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: main });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Research' }], tools: TOOLS });
      main.push({ role: 'assistant', content: a.choices[0]!.message.content }, { role: 'user', content: 'Go on' });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: main });
    });
    expect(t.messages_and_choices!.map((m) => (m as { role?: string }).role ?? 'choice')).toEqual(['user', 'choice', 'user', 'choice']);
    expect(t.tools).toBeUndefined();
    expect(t.additional_histories).toHaveLength(1);
    expect(t.additional_histories![0]).toMatchObject({ messages_and_choices: [{ role: 'user', content: 'Research' }, { finish_reason: 'tool_calls' }], tools: TOOLS });
  });
});

describe('trajectory(): OpenAI responses, Anthropic, AI SDK (converted to the chat shape)', () => {
  it('responses.create, unstreamed and streamed: instructions, input and output as messages and a choice', async () => {
    const client = openai();
    const { t } = await capture('traj-resp', async () => {
      await client.responses.create({ model: 'gpt-4o-mini', instructions: 'Be brief.', input: 'Say hi' });
      await collect(await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Say hi' }], stream: true }));
    });
    const choice = { index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' };
    expect(t.messages_and_choices).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hi' }, choice]);
    expect(t.additional_histories).toEqual([{ messages_and_choices: [{ role: 'user', content: 'Say hi' }, choice] }]);
  });

  for (const stream of [false, true]) {
    it(`anthropic messages.create (${stream ? 'streamed' : 'not streamed'}): tool use and tool results as tool calls and tool messages`, async () => {
      const client = wrapAnthropic(new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake().anthropicURL, maxRetries: 0 }));
      const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'The weather in a city', input_schema: WEATHER as Anthropic.Tool.InputSchema }];
      const ask = async (messages: Anthropic.MessageParam[]): Promise<Anthropic.Message> => {
        const body = { model: 'claude-haiku-4-5', max_tokens: 100, system: 'Be brief.', messages, tools };
        if (!stream) return client.messages.create(body);
        return client.messages.stream(body).finalMessage();
      };
      const { t } = await capture(`traj-anth-${stream}`, async () => {
        const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
        const r1 = await ask(messages);
        messages.push({ role: 'assistant', content: r1.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] });
        await ask(messages);
      });
      expect(t.messages_and_choices).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { index: 0, message: { role: 'assistant', content: null, tool_calls: [{ ...CALL_1, id: 'toolu_1' }] }, finish_reason: 'tool_calls' },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        { index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' },
      ]);
      expect(t.tools).toEqual(TOOLS);
      expect(t.additional_histories).toBeUndefined();
    });
  }

  for (const stream of [false, true]) {
    it(`AI SDK ${stream ? 'streamText' : 'generateText'}: one choice per step, tool results as tool messages, zod tool schema as parameters`, async () => {
      const w = wrapAISDK(ai);
      const model = createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL }).chat('gpt-4o-tool');
      const tools = { get_weather: ai.tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, forecast: 'sunny' }) }) };
      const options = { model, system: 'Be brief.', prompt: 'Weather in Paris?', tools, stopWhen: ai.stepCountIs(3), maxRetries: 0 };
      const { t } = await capture(`traj-ai-${stream}`, async () => {
        if (stream) await w.streamText(options).consumeStream();
        else await w.generateText(options);
      });
      expect(t.messages_and_choices).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { index: 0, message: { role: 'assistant', content: null, tool_calls: [CALL_1] }, finish_reason: 'tool_calls' },
        { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","forecast":"sunny"}' },
        { index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' },
      ]);
      expect(t.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: { ...WEATHER, additionalProperties: false } } }]);
    });
  }
});

describe('gatherTrajectoryGroups()', () => {
  it('n rollouts per scenario in order; a failing rollout is recorded on its trace, left out, and seen by onError', async () => {
    const client = openai();
    const errors: [string, number][] = [];
    const solve = trajectory(async function solve(q: string, i: number) {
      if (q === 'b' && i === 1) throw new Error('rollout broke');
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });
      setReward(i);
      return i;
    });
    let groups: Awaited<ReturnType<typeof gatherTrajectoryGroups>> = [];
    const calls = await traced(server(), 'traj-gather', async () => {
      groups = await gatherTrajectoryGroups(['a', 'b', 'c'], { rollouts: 3, concurrency: 2, onError: (e, s, i) => errors.push([`${s}:${(e as Error).message}`, i]) }, solve);
    });
    expect(groups.map((g) => g.trajectories.map((t) => t.reward))).toEqual([[0, 1, 2], [0, 2], [0, 1, 2]]);
    expect(groups[1]!.trajectories[0]!.messages_and_choices![0]).toEqual({ role: 'user', content: 'b' });
    expect(errors).toEqual([['b:rollout broke', 1]]);
    const rollouts = calls.filter((c) => c.op_name === 'solve');
    expect(rollouts).toHaveLength(9);
    expect(rollouts.filter((c) => c.exception).map((c) => c.inputs)).toEqual([{ q: 'b', i: 1 }]);
    const ids = new Set(groups.flatMap((g) => g.trajectories.map((t) => (t.metadata as { call_id: string }).call_id)));
    expect(ids.size).toBe(8);
    for (const id of ids) expect(rollouts.some((c) => c.id === id)).toBe(true);
  });

  it('trajectory() keeps the function\'s type (like op()) and capture() resolves to its output and the trajectory', async () => {
    const f = trajectory(async (a: number, b: string) => `${a}${b}`);
    expectTypeOf(f).parameters.toEqualTypeOf<[number, string]>();
    expectTypeOf(f).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(f.capture).returns.toEqualTypeOf<Promise<{ output: string; trajectory: Trajectory }>>();
    expect(await f(1, 'x')).toBe('1x');
    const { output, trajectory: t } = await f.capture(2, 'y');
    expect([output, t.reward, t.messages_and_choices]).toEqual(['2y', 0, []]);
  });

  it('Responses API input items: function calls and their outputs become an assistant turn of tool calls and tool messages', () => {
    const call = { type: 'function_call', call_id: 'fc_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
    const ex = responsesExchange(
      { input: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] }, call, { type: 'function_call_output', call_id: 'fc_1', output: 'sunny' }], tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER }] },
      { output: [{ type: 'function_call', call_id: 'fc_2', name: 'get_weather', arguments: '{}' }], incomplete_details: null },
    );
    expect(ex).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'fc_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'fc_1', content: 'sunny' },
      ],
      choice: { index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'fc_2', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, finish_reason: 'tool_calls' },
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }],
    });
  });

  it('refuses a bad option with a TypeError naming it; helpers outside a rollout do nothing', async () => {
    await expect(gatherTrajectoryGroups([1], { rollouts: 0 }, () => 1)).rejects.toThrow(/rollouts must be an integer >= 1, got 0/);
    expect(() => setReward(1)).not.toThrow();
  });
});
