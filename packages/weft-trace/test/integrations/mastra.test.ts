// @weft-test: isolated runtime node22 (a framework's process-wide registration, or OpenTelemetry's global context manager)
// WeftExporter against the real @mastra/core and @mastra/observability (Node >= 22.13): an agent with a tool on ai/test's
// MockLanguageModelV3 (generate and stream), a two-step workflow, and the bridge: an op in a tool and a wrapped OpenAI
// client under a custom model each nest under their Mastra span, the request's usage counted once.
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { Observability } from '@mastra/observability';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { op, WeftExporter, wrapOpenAI } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

type Generated = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
const usage = (input: number, output: number): Generated['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
const toolCall: Generated = {
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Oslo"}' }],
  finishReason: { unified: 'tool-calls', raw: undefined },
  usage: usage(10, 5),
  warnings: [],
};
const answer: Generated = { content: [{ type: 'text', text: 'Sunny in Oslo' }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(20, 7), warnings: [] };

/** A model that asks for the weather tool, then answers (per conversation: a tool result in the prompt means answer). */
function scriptedModel(): MockLanguageModelV3 {
  const hasToolResult = (prompt: { role: string }[]): boolean => prompt.some((m) => m.role === 'tool');
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => (hasToolResult(prompt) ? answer : toolCall),
    doStream: async ({ prompt }) => {
      const r = hasToolResult(prompt) ? answer : toolCall;
      const parts = r === answer
        ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Sunny in Oslo' }, { type: 'text-end', id: 't' }]
        : [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Oslo"}' }];
      const chunks = [{ type: 'stream-start', warnings: [] }, ...parts, { type: 'finish', finishReason: r.finishReason, usage: r.usage }];
      return { stream: simulateReadableStream({ chunks: chunks as never[], initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

const forecast = op(async function forecast(city: string) {
  return `sunny in ${city}`;
});
const weather = createTool({
  id: 'weather',
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: await forecast(city) }),
});

/** A Mastra app whose observability config has a WeftExporter (also its bridge when `bridge`). */
function mastraWith(model: MockLanguageModelV3, bridge: boolean): Mastra {
  const weft = new WeftExporter();
  const agent = new Agent({ id: 'weather-agent', name: 'Weather', instructions: 'Be brief.', model, tools: { weather } });
  const double = createStep({ id: 'double', inputSchema: z.object({ x: z.number() }), outputSchema: z.object({ x: z.number() }), execute: async ({ inputData }) => ({ x: inputData.x * 2 }) });
  const inc = createStep({ id: 'inc', inputSchema: z.object({ x: z.number() }), outputSchema: z.object({ x: z.number() }), execute: async ({ inputData }) => ({ x: inputData.x + 1 }) });
  const math = createWorkflow({ id: 'math', inputSchema: z.object({ x: z.number() }), outputSchema: z.object({ x: z.number() }) }).then(double).then(inc).commit();
  const config = { serviceName: 'weft-test', exporters: [weft], ...(bridge ? { bridge: weft } : {}) };
  return new Mastra({ agents: { agent }, workflows: { math }, logger: false, observability: new Observability({ configs: { weft: config } }) });
}

/** Each call as `op_name <- parent op_name`, in start order; all in one trace. */
function tree(calls: CallRecord[]): string[] {
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls.map((c) => `${c.op_name} <- ${c.parent_id ? byId.get(c.parent_id)?.op_name : '(root)'}`);
}

const usageOf = (c: CallRecord): unknown => (c.summary as { usage?: unknown } | undefined)?.usage;
/** An agent run's generation and its tool call, under the agent. */
const AGENT_RUN = ['mastra.model_generation <- mastra.agent.weather-agent', 'mastra.tool.weather <- mastra.model_generation'];
const USAGE = { 'mock-model-id': { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, requests: 2 } };

describe('WeftExporter', () => {
  it('an agent run with a tool: agent, generation and tool call nest under the calling op, usage over both requests once', async () => {
    const mastra = mastraWith(scriptedModel(), false);
    const ask = op(async function ask(q: string) {
      return (await mastra.getAgent('agent').generate(q)).text;
    });
    let text = '';
    const calls = await traced(server(), 'mastra-agent', async () => {
      text = await ask('Weather in Oslo?');
    });
    expect(text).toBe('Sunny in Oslo');
    // exporter only: the op in the tool runs in the context of the caller (`ask`)
    expect(tree(calls)).toEqual([
      'ask <- (root)',
      'mastra.agent.weather-agent <- ask',
      ...AGENT_RUN,
      'forecast <- ask',
    ]);
    const gen = one(calls, 'mastra.model_generation');
    expect(gen.display_name).toBe("llm: 'mock-model-id'");
    expect(gen.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'mock-provider', 'gen_ai.request.model': 'mock-model-id' });
    expect((gen.inputs as { messages: unknown[] }).messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(gen.output).toMatchObject({ text: 'Sunny in Oslo', toolCalls: [{ toolName: 'weather', args: { city: 'Oslo' } }] });
    expect(usageOf(gen)).toMatchObject(USAGE);
    expect(gen.summary).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'] });
    for (const name of ['mastra.agent.weather-agent', 'ask']) expect(usageOf(one(calls, name))).toEqual(usageOf(gen));
    const tool = one(calls, 'mastra.tool.weather');
    expect(tool.inputs).toEqual({ city: 'Oslo' });
    expect(tool.output).toEqual({ city: 'Oslo', forecast: 'sunny in Oslo' });
    expect(one(calls, 'mastra.agent.weather-agent').attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Weather' });
  });

  it('a streamed agent run records the usage of both streamed requests; with the bridge, an op in the tool nests under the tool call', async () => {
    const mastra = mastraWith(scriptedModel(), true);
    let text = '';
    const calls = await traced(server(), 'mastra-stream', async () => {
      const stream = await mastra.getAgent('agent').stream('Weather in Oslo?');
      for await (const t of stream.textStream) text += t;
    });
    expect(text).toBe('Sunny in Oslo');
    expect(tree(calls)).toEqual([
      'mastra.agent.weather-agent <- (root)',
      ...AGENT_RUN,
      'forecast <- mastra.tool.weather',
    ]);
    expect(usageOf(one(calls, 'mastra.model_generation'))).toMatchObject(USAGE);
    expect(usageOf(one(calls, 'mastra.agent.weather-agent'))).toMatchObject(USAGE);
  });

  it('a workflow with two steps: the run and its steps in order under the calling op', async () => {
    const mastra = mastraWith(scriptedModel(), true);
    const calls = await traced(server(), 'mastra-workflow', async () => {
      const run = await mastra.getWorkflow('math').createRun();
      const r = await op(async function compute() {
        return run.start({ inputData: { x: 3 } });
      })();
      expect(r.status === 'success' && r.result).toEqual({ x: 7 });
    });
    expect(tree(calls)).toEqual([
      'compute <- (root)',
      'mastra.workflow.math <- compute',
      'mastra.workflow_step.double <- mastra.workflow.math',
      'mastra.workflow_step.inc <- mastra.workflow.math',
    ]);
    expect(one(calls, 'mastra.workflow_step.double')).toMatchObject({ inputs: { x: 3 }, output: { x: 6 } });
    expect(one(calls, 'mastra.workflow.math')).toMatchObject({ inputs: { x: 3 }, output: { x: 7 } });
  });

  it("a failing model: the agent run records the error, the generation fails too, the caller's promise rejects as without weft", async () => {
    const failing = new MockLanguageModelV3({ doGenerate: async () => Promise.reject(new Error('model down')), doStream: async () => Promise.reject(new Error('model down')) });
    const mastra = mastraWith(failing, true);
    let thrown: unknown;
    const calls = await traced(server(), 'mastra-error', async () => {
      thrown = await mastra.getAgent('agent').generate('Hi').then(() => undefined, (err: unknown) => err);
    });
    expect(String(thrown)).toContain('model down');
    const exceptionOf = (name: string): string => String((one(calls, name).exception as { message?: unknown } | null)?.message);
    expect(exceptionOf('mastra.agent.weather-agent')).toContain('model down');
    // Mastra ends the generation with finish reason "error" and gives the error to the agent run only
    expect(exceptionOf('mastra.model_generation')).toBe('the model generation ended with finish reason "error"');
  });

  it('a model over a wrapped OpenAI client (bridge set): the wrapper\'s call is the model call, its usage counted once', async () => {
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    const model = new MockLanguageModelV3({
      modelId: 'gpt-4o-mini',
      doGenerate: async ({ prompt }) => {
        const text = prompt.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
        const r = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
        const u = r.usage!;
        return { ...answer, content: [{ type: 'text', text: r.choices[0]!.message.content ?? '' }], usage: usage(u.prompt_tokens, u.completion_tokens) };
      },
    });
    const mastra = mastraWith(model, true);
    const calls = await traced(server(), 'mastra-once', async () => {
      await mastra.getAgent('agent').generate('Hello');
    });
    expect(tree(calls)).toEqual([
      'mastra.agent.weather-agent <- (root)',
      'mastra.model_generation <- mastra.agent.weather-agent',
      'openai.chat.completions.create <- mastra.model_generation',
    ]);
    const request = one(calls, 'openai.chat.completions.create');
    const perModel = usageOf(request) as Record<string, { requests: number; prompt_tokens: number }>;
    expect(Object.values(perModel).map((u) => u.requests)).toEqual([1]);
    // the generation adds nothing of its own: its usage and the root's are the wrapper's, once
    expect(usageOf(one(calls, 'mastra.model_generation'))).toEqual(perModel);
    expect(usageOf(one(calls, 'mastra.agent.weather-agent'))).toEqual(perModel);
  });
});
