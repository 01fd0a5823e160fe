// The Vercel AI SDK through OpenTelemetry (experimental_telemetry + WeftSpanProcessor): each model request counted once, though the operation's span repeats its steps' usage.
import { createOpenAI } from '@ai-sdk/openai';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import * as ai from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flush, init, op } from '../../src/index.js';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { modelCalls } from 'weft-test-kit/ai-sdk-steps.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const fake = useFakeLlm();
let provider: BasicTracerProvider;

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

/** What the fake answers to one `gpt-4o-tool` request (packages/test-kit/src/fake-llm-openai.ts), as the AI SDK's spans report it. */
const REQUEST = { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, requests: 1 };
const MODEL = 'gpt-4o-tool-2024-07-18';
const times = (n: number) => ({ prompt_tokens: 1200 * n, completion_tokens: 80 * n, total_tokens: 1280 * n, requests: n });
const usageOf = (c: CallRecord): unknown => (c.summary as Record<string, unknown> | null)?.['usage'];

describe('the AI SDK through OpenTelemetry', () => {
  it('a two-step generateText and a two-step streamText under one op: the root counts the four requests the server answered (tokens and requests), once', async () => {
    const project = uniqueProject('otel-ai-usage');
    init({ project, baseUrl: server().url, flushIntervalMs: 20 });
    const openai = createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL });
    const weather = ai.tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, forecast: 'sunny' }) });
    const options = () => ({
      model: openai.chat('gpt-4o-tool'), prompt: 'Weather in Paris?', tools: { get_weather: weather }, stopWhen: ai.stepCountIs(3), maxRetries: 0,
      experimental_telemetry: { isEnabled: true },
    });
    const requestsBefore = fake().requests.length;
    await op(async function agent() {
      await ai.generateText(options());
      await ai.streamText(options()).consumeStream();
    })();
    await provider.forceFlush();
    expect((await flush()).dropped).toBe(0);
    expect(fake().requests.length - requestsBefore, 'requests the loopback server answered').toBe(4);

    const calls = await readCalls(server().url, project);
    const named = (name: string) => calls.filter((c) => c.op_name === name);
    const [root] = calls.filter((c) => c.parent_id === null);
    expect(root!.op_name).toBe('agent');
    expect(usageOf(root!)).toEqual({ [MODEL]: times(4) });
    for (const [opName, stepName] of [['ai.generateText', 'ai.generateText.doGenerate'], ['ai.streamText', 'ai.streamText.doStream']] as const) {
      const [operation] = named(opName);
      const steps = named(stepName);
      expect(steps.map((s) => s.parent_id)).toEqual([operation!.id, operation!.id]);
      for (const s of steps) expect(usageOf(s)).toEqual({ [MODEL]: REQUEST });
      expect(usageOf(operation!), `${opName}: its two requests, once`).toEqual({ [MODEL]: times(2) });
    }
    expect(modelCalls(calls, calls).sort(), 'the viewer tags the four requests as model calls, not the runs').toEqual(
      ['ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.streamText.doStream'],
    );
  });
});
