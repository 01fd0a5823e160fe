/**
 * Test helper of the viewer's Chromium tests: a traced agent (the real `openai` package wrapped with `wrapOpenAI`
 * against the loopback fake API: a tool call, then a streamed reply) sent to a `weft serve`, and a stream query.
 * @module
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import { weftCallId, weftTraceId } from 'weft-trace/otel';
import { flush, init, op, wrapOpenAI } from 'weft-trace';
import { startFakeLlm } from 'weft-test-kit/fake-llm.js';

export const AGENT_PROJECT = 'local/ui-agent';
export const AGENT_QUESTION = 'What is the weather in Paris today?';

/** Runs the agent once against `baseUrl` (init, run, flush); the fake API is closed after. */
export async function tracedAgent(baseUrl: string): Promise<void> {
  const fake = await startFakeLlm();
  try {
    init({ project: AGENT_PROJECT, baseUrl, flushIntervalMs: 50, printViewerLink: false });
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake.openaiURL, maxRetries: 0 }));
    const getWeather = op(async function get_weather(args: { city: string }) {
      return { city: args.city, temp_c: 21 };
    });
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const agent = op(async function weatherAgent(question: string) {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You answer weather questions.' }, { role: 'user', content: question }];
      const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
      const asked = first.choices[0]!.message;
      const call = asked.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      const result = await getWeather(JSON.parse(call.function.arguments) as { city: string });
      messages.push(asked, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      let text = '';
      for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    });
    await agent(AGENT_QUESTION);
    await flush();
  } finally {
    await fake.close();
  }
}

/** `/calls/stream_query` of `project` with `body`'s other fields; the records. */
export async function query1(baseUrl: string, project: string, body: Record<string, unknown>): Promise<{ id: string; trace_id: string; summary: Record<string, unknown> }[]> {
  const res = await fetch(`${baseUrl}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project, ...body }) });
  if (res.status !== 200) throw new Error(`stream_query: ${res.status} ${await res.text()}`);
  return (await res.text()).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { id: string; trace_id: string; summary: Record<string, unknown> });
}

export const OTEL_PROJECT = 'local/ui-otel';

/** A span's ids as weft stores them, and the question it asked. */
export interface SentSpan {
  traceId: string;
  callId: string;
  question: string;
}

/**
 * Sends two GenAI chat spans through the real OTLP/HTTP JSON exporter to `baseUrl`'s `/otel/v1/traces`: one with
 * its messages in attributes (`gen_ai.input.messages`, v1.37+), one with them in events (`gen_ai.user.message`,
 * `gen_ai.choice`).
 */
export async function sendGenAISpans(baseUrl: string, project: string): Promise<{ attributes: SentSpan; events: SentSpan }> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${baseUrl}/otel/v1/traces`, headers: { project_id: project } }))] });
  const tracer = provider.getTracer('ui-test');
  const a = tracer.startSpan('chat gpt-4o', { attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Capital of France?' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Paris.' }], finish_reason: 'stop' }]),
    'gen_ai.usage.input_tokens': 9,
    'gen_ai.usage.output_tokens': 2,
  } });
  a.end();
  const e = tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' } });
  e.addEvent('gen_ai.user.message', { content: 'What is 2+2?' });
  e.addEvent('gen_ai.choice', { index: 0, finish_reason: 'stop', message: JSON.stringify({ role: 'assistant', content: '4' }) });
  e.end();
  await provider.forceFlush();
  await provider.shutdown();
  const ids = (s: typeof a, question: string): SentSpan => ({ traceId: weftTraceId(s.spanContext().traceId), callId: weftCallId(s.spanContext().traceId, s.spanContext().spanId), question });
  return { attributes: ids(a, 'Capital of France?'), events: ids(e, 'What is 2+2?') };
}
