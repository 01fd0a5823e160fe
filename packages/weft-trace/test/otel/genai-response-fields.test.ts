// One place for a model call's response facts (gen_ai.response.model / id / finish_reasons) whichever route recorded it:
// wrapOpenAI against the loopback fake API, WeftSpanProcessor, and OTLP ingest, all into a real weft server.
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flush, init, wrapOpenAI } from '../../src/index.js';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const fake = useFakeLlm();
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});

const RESPONSE_KEYS = ['gen_ai.response.model', 'gen_ai.response.id', 'gen_ai.response.finish_reasons'];

/** A chat span as an instrumentation records it: request facts at its start, response facts set before its end. */
function chatSpan(tracer: Tracer): void {
  const span = tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' } });
  span.setAttributes({
    'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
    'gen_ai.response.id': 'chatcmpl-1',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': 3,
    'gen_ai.usage.output_tokens': 2,
  });
  span.end();
}

/** The response facts are in `summary` under their GenAI names, and none is in `attributes`. */
function expectResponseInSummary(call: CallRecord): void {
  const summary = call.summary as Record<string, unknown>;
  expect(summary['gen_ai.response.model']).toBe('gpt-4o-mini-2024-07-18');
  expect(summary['gen_ai.response.id']).toBe('chatcmpl-1');
  expect(summary['gen_ai.response.finish_reasons']).toEqual(['stop']);
  expect(Object.keys(call.attributes ?? {}).filter((k) => RESPONSE_KEYS.includes(k))).toEqual([]);
  expect(call.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini' });
}

describe('gen_ai.response.* are summary fields in every route', () => {
  it('wrapOpenAI (the facts are known only when the call ends; its attributes went out with its start)', async () => {
    const project = uniqueProject('resp-wrapper');
    init({ project, baseUrl: server().url, flushIntervalMs: 20 });
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    await flush();
    const [call] = (await readCalls(server().url, project)).filter((c) => c.op_name === 'openai.chat.completions.create');
    expectResponseInSummary(call!);
  });

  it('WeftSpanProcessor (a span whose response attributes were set before it ended)', async () => {
    const project = uniqueProject('resp-processor');
    init({ project, baseUrl: server().url, flushIntervalMs: 20 });
    const provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
    chatSpan(provider.getTracer('resp-test'));
    await provider.forceFlush();
    await flush();
    await provider.shutdown();
    const [call] = await readCalls(server().url, project);
    expectResponseInSummary(call!);
    expect(call!.summary?.usage).toEqual({ 'gpt-4o-mini-2024-07-18': { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
  });

  it('OTLP ingest (POST /otel/v1/traces, protobuf)', async () => {
    const project = uniqueProject('resp-otlp');
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'weft.project': project }),
      spanProcessors: [new SimpleSpanProcessor(new ProtoExporter({ url: `${server().url}/otel/v1/traces` }))],
    });
    chatSpan(provider.getTracer('resp-test'));
    await provider.forceFlush();
    await provider.shutdown();
    const [call] = await readCalls(server().url, project);
    expectResponseInSummary(call!);
  });
});
