// @weft-test: isolated runtime (a framework's process-wide registration, or OpenTelemetry's global context manager)
// WeftTracingProcessor with the real OpenAI Agents SDK: a scripted model (the SDK's own test double) and OpenAIResponsesModel /
// OpenAIChatCompletionsModel over real openai clients at a loopback fake of the API; the exact tree, usage once per request.
import {
  Agent,
  OpenAIProvider,
  createCustomSpan,
  createGenerationSpan,
  getGlobalTraceProvider,
  run,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  withCustomSpan,
  withTrace,
  type TracingProcessor,
} from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents-core/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getCurrentCall, op, WeftTracingProcessor, wrapOpenAI } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { collect, useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();
// the processor is typed by the SDK's own interface: this line fails to compile if it stops fitting
const processor: TracingProcessor = new WeftTracingProcessor();

beforeAll(() => setTraceProcessors([processor]));
// as the SDK left it when loaded under NODE_ENV=test
afterAll(() => (setTraceProcessors([]), setTracingDisabled(true)));

const MODEL = 'gpt-4o-mini-2024-07-18';
/** What the fake reports for each Responses API request (fake-llm-openai.ts), in weft's usage shape. */
const USAGE = { prompt_tokens: 1200, input_tokens: 1200, completion_tokens: 80, output_tokens: 80, total_tokens: 1280, requests: 1, cache_read_input_tokens: 200, reasoning_tokens: 30 };
const times = (n: number) => Object.fromEntries(Object.entries(USAGE).map(([k, v]) => [k, v * n]));

/** Every call as `parent > child`, each named `op_name[display_name]` (order-free, exact). */
function edges(calls: CallRecord[]): string[] {
  const label = (c: CallRecord): string => (c.display_name ? `${c.op_name}[${c.display_name}]` : c.op_name);
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls.map((c) => `${c.parent_id ? label(byId.get(c.parent_id)!) : '(root)'} > ${label(c)}`).sort();
}

/** The model of the Responses API at the fake: an openai 7 client the SDK makes itself, or `client` (wrapped, openai 6). */
function responsesModel(client?: OpenAI): Promise<ConstructorParameters<typeof Agent>[0]['model']> {
  const options = client ? { openAIClient: client as never } : { apiKey: 'sk-test', baseURL: fake().openaiURL };
  return new OpenAIProvider({ ...options, useResponses: true }).getModel('gpt-4o-mini');
}

const rawClient = (): OpenAI => new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 });

it('records nothing while the SDK does not trace (NODE_ENV=test as loaded, setTracingDisabled(true)); a wrapped client still is', async () => {
  expect(process.env['NODE_ENV']).toBe('test');
  const agent = new Agent({ name: 'writer', instructions: 'be brief', model: await responsesModel(wrapOpenAI(rawClient())) });
  const ask = (name: string) => op(async () => void (await run(agent, 'hi')), { name });
  const calls = await traced(server(), 'agents-off', async () => {
    await ask('as-loaded')(); // this file enables tracing only after this test (beforeEach of the tests below)
    setTracingDisabled(false);
    await ask('enabled')();
    setTracingDisabled(true);
    await ask('disabled')();
  });
  const under = (name: string) => calls.filter((c) => c.parent_id === one(calls, name).id).map((c) => c.op_name);
  expect([under('as-loaded'), under('enabled'), under('disabled')]).toEqual([['openai.responses.create'], ['openai.agents.trace'], ['openai.responses.create']]);
});

describe('with tracing enabled', () => {
  beforeEach(() => setTracingDisabled(false));

  it('records an agent run with a tool, a custom span, an op inside the tool, a guardrail and a handoff as one tree under the running op', async () => {
    let inTool: string | undefined;
    const lookup = op(async function lookup(city: string) {
      return `sunny in ${city}`;
    });
    const weather = tool({
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        inTool = getCurrentCall()?.opName;
        return withCustomSpan(async () => lookup(city), { data: { name: 'cache', data: { hit: false } } });
      },
    });
    const model = new ScriptedModel([
      [functionCall('get_weather', { city: 'Paris' }, { callId: 'c1' })],
      [functionCall('transfer_to_french', {}, { callId: 'c2' })],
      [assistantMessage('Il fait beau.')],
    ]);
    const french = new Agent({ name: 'french', instructions: 'Answer in French', model });
    const triage = new Agent({
      name: 'triage',
      instructions: 'Route the question',
      model,
      tools: [weather],
      handoffs: [french],
      inputGuardrails: [{ name: 'no_spam', execute: async () => ({ outputInfo: { ok: true }, tripwireTriggered: false }) }],
    });
    let answer: unknown;
    const calls = await traced(server(), 'agents-tree', () => op(async function ask(q: string) { answer = (await run(triage, q)).finalOutput; })('Weather in Paris?'));
    expect(answer).toBe('Il fait beau.');
    model.assertComplete();
    expect(edges(calls)).toEqual([
      '(root) > ask',
      'ask > openai.agents.trace[Agent workflow]',
      'openai.agents.agent[french] > openai.agents.turn[french turn 3]',
      'openai.agents.agent[triage] > openai.agents.guardrail[no_spam]',
      'openai.agents.agent[triage] > openai.agents.turn[triage turn 1]',
      'openai.agents.agent[triage] > openai.agents.turn[triage turn 2]',
      'openai.agents.custom[cache] > lookup',
      'openai.agents.function[get_weather] > openai.agents.custom[cache]',
      'openai.agents.task[run] > openai.agents.agent[french]',
      'openai.agents.task[run] > openai.agents.agent[triage]',
      'openai.agents.trace[Agent workflow] > openai.agents.task[run]',
      'openai.agents.turn[triage turn 1] > openai.agents.function[get_weather]',
      'openai.agents.turn[triage turn 2] > openai.agents.handoff[triage → french]',
    ]);
    expect(new Set(calls.map((c) => c.trace_id))).toEqual(new Set([one(calls, 'ask').trace_id]));
    expect(calls.every((c) => c.ended_at && !c.exception)).toBe(true);
    expect(inTool).toBe('openai.agents.function');
    const fn = one(calls, 'openai.agents.function');
    expect([fn.inputs, fn.output]).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }, 'sunny in Paris']);
    const agent = calls.find((c) => c.display_name === 'triage')!;
    expect([agent.inputs, agent.output]).toEqual([{ name: 'triage' }, { tools: ['get_weather'], handoffs: ['french'], output_type: 'text' }]);
    expect([one(calls, 'openai.agents.guardrail').output, one(calls, 'openai.agents.handoff').inputs]).toEqual([{ triggered: false }, { from_agent: 'triage', to_agent: 'french' }]);
    expect(one(calls, 'openai.agents.custom').inputs).toEqual({ name: 'cache', data: { hit: false } });
    expect(one(calls, 'openai.agents.trace').attributes).toHaveProperty('openai.agents.trace_id', expect.stringMatching(/^trace_/));
    expect(one(calls, 'ask').summary).toMatchObject({ status_counts: { success: 13, error: 0 } });
  });

  it('records OpenAIResponsesModel requests (awaited and streamed) as response calls with the request, the response and usage, once each', async () => {
    const agent = new Agent({ name: 'writer', instructions: 'be brief', model: await responsesModel() });
    const calls = await traced(server(), 'agents-responses', () =>
      op(async function ask() {
        await run(agent, 'hi');
        const streamed = await run(agent, 'hi', { stream: true });
        await collect(streamed);
        await streamed.completed;
      })(),
    );
    const responses = calls.filter((c) => c.op_name === 'openai.agents.response');
    expect(responses).toHaveLength(2);
    for (const r of responses) {
      expect(calls.find((c) => c.id === r.parent_id)!.op_name).toBe('openai.agents.turn');
      expect(r.inputs).toEqual({ model: MODEL, input: [{ type: 'message', role: 'user', content: 'hi' }] });
      expect(r.output).toMatchObject({ object: 'response', id: 'resp_1', output: [{ type: 'message', content: [{ text: 'w0 w1 w2 w3 w4' }] }] });
      expect(r.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': MODEL });
      expect(r.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['completed'], 'gen_ai.response.model': MODEL, 'gen_ai.response.id': 'resp_1' });
    }
    expect(calls.filter((c) => c.op_name === 'openai.agents.trace').map((c) => c.parent_id)).toEqual([one(calls, 'ask').id, one(calls, 'ask').id]);
    expect((one(calls, 'ask').summary as { usage: unknown }).usage).toEqual({ [MODEL]: times(2) });
  });

  it('with a wrapOpenAI client, the wrapper call is the model call: under the response span, which records no usage; usage once', async () => {
    const agent = new Agent({ name: 'writer', instructions: 'be brief', model: await responsesModel(wrapOpenAI(rawClient())) });
    const calls = await traced(server(), 'agents-wrapped', () =>
      op(async function ask() {
        await run(agent, 'hi');
        await (await run(agent, 'hi', { stream: true })).completed;
      })(),
    );
    const wrapped = calls.filter((c) => c.op_name === 'openai.responses.create');
    expect(wrapped).toHaveLength(2);
    for (const w of wrapped) {
      const span = calls.find((c) => c.id === w.parent_id)!;
      expect(span.op_name).toBe('openai.agents.response');
      expect([span.output, span.summary?.['usage'], span.attributes]).toEqual([{ response_id: 'resp_1' }, { [MODEL]: USAGE }, expect.not.objectContaining({ 'gen_ai.operation.name': 'chat' })]);
      expect((w.summary as { usage: unknown }).usage).toEqual({ [MODEL]: USAGE });
    }
    expect((one(calls, 'ask').summary as { usage: unknown }).usage).toEqual({ [MODEL]: times(2) });
  });

  it('records OpenAIChatCompletionsModel requests as generation calls with messages, the completion and usage', async () => {
    const agent = new Agent({ name: 'writer', instructions: 'be brief', model: await new OpenAIProvider({ apiKey: 'sk-test', baseURL: fake().openaiURL, useResponses: false }).getModel('gpt-4o-mini') });
    const calls = await traced(server(), 'agents-chat', () => op(async function ask() { await run(agent, 'hi'); })());
    const g = one(calls, 'openai.agents.generation');
    expect(calls.find((c) => c.id === g.parent_id)!.op_name).toBe('openai.agents.turn');
    expect(g.inputs).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });
    expect(g.output).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'w0 w1 w2 w3 w4' } }] });
    expect(g.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' });
    expect(g.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['stop'] });
    expect((one(calls, 'ask').summary as { usage: unknown }).usage).toEqual({ [MODEL]: USAGE });
  });

  it('names a run apart from its trace: `run` under the workflow it repeats, else the workflow the run names', async () => {
    const agent = new Agent({ name: 'writer', model: new ScriptedModel([[assistantMessage('a')], [assistantMessage('b')], [assistantMessage('c')]]) });
    const calls = await traced(server(), 'agents-names', () =>
      op(async function ask() {
        await run(agent, 'one'); // its own trace, named by the SDK's default, as is its run
        await new Runner({ workflowName: 'Forecast' }).run(agent, 'two'); // trace and run both named Forecast
        await withTrace('Weather desk', () => new Runner({ workflowName: 'Forecast' }).run(agent, 'three')); // a run named apart from its trace
      })(),
    );
    const runs = (trace: string) => edges(calls).filter((e) => e.startsWith(`openai.agents.trace[${trace}] >`));
    expect([runs('Agent workflow'), runs('Forecast'), runs('Weather desk')]).toEqual([
      ['openai.agents.trace[Agent workflow] > openai.agents.task[run]'],
      ['openai.agents.trace[Forecast] > openai.agents.task[run]'],
      ['openai.agents.trace[Weather desk] > openai.agents.task[Forecast]'],
    ]);
    // the run's own name stays in its inputs
    expect(calls.filter((c) => c.op_name === 'openai.agents.task').map((c) => c.inputs)).toEqual([{ name: 'Agent workflow' }, { name: 'Forecast' }, { name: 'Forecast' }]);
  });

  it('keeps a span that ends after its trace (openai-agents-js#570) in the tree, its usage counted in the trace and the op', async () => {
    const calls = await traced(server(), 'agents-late', () =>
      op(async function ask() {
        const trace = getGlobalTraceProvider().createTrace({ name: 'late' });
        await trace.start();
        const step = createCustomSpan({ data: { name: 'step', data: {} } }, trace);
        step.start();
        await trace.end();
        const gen = createGenerationSpan({ data: { model: 'm-1', input: [{ role: 'user', content: 'hi' }], output: [{ role: 'assistant', content: 'yo' }], usage: { input_tokens: 10, output_tokens: 5 } } }, step);
        gen.start();
        gen.end();
        step.end();
      })(),
    );
    expect(edges(calls)).toEqual(['(root) > ask', 'ask > openai.agents.trace[late]', 'openai.agents.custom[step] > openai.agents.generation', 'openai.agents.trace[late] > openai.agents.custom[step]']);
    const usage = { 'm-1': { prompt_tokens: 10, input_tokens: 10, completion_tokens: 5, output_tokens: 5, total_tokens: 15, requests: 1 } };
    expect([one(calls, 'openai.agents.trace').summary?.['usage'], one(calls, 'ask').summary?.['usage']]).toEqual([usage, usage]);
    expect(Date.parse(one(calls, 'openai.agents.trace').ended_at!)).toBeGreaterThanOrEqual(Date.parse(one(calls, 'openai.agents.custom').ended_at!));
  });
});
