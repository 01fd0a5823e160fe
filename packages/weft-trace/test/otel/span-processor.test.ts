// @weft-test: postgres
// WeftSpanProcessor and WeftSpanExporter with the real OTel SDK into a real weft server: nesting, ids, errors, odd spans, the Next.js filter.
import { SpanStatusCode, context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import { WeftSpanExporter, WeftSpanProcessor, weftCallId, weftTraceId } from '../../src/otel/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { ISO_UTC } from 'weft-test-kit/shapes.js';

const server = useTestServer();
const contextManager = new AsyncLocalStorageContextManager();
let provider: BasicTracerProvider;
let tracer: Tracer;

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
  tracer = provider.getTracer('weft-test', '1.0.0');
});
afterAll(async () => {
  await provider.shutdown();
  context.disable();
});

/** Runs `body` with weft initialised for a fresh project, flushes, and reads the project's calls. */
async function record(label: string, body: () => unknown): Promise<CallRecord[]> {
  const project = uniqueProject(label);
  init({ project, baseUrl: server().url, flushIntervalMs: 20 });
  await body();
  const report = await flush();
  expect(report.dropped).toBe(0);
  return readCalls(server().url, project);
}
const byName = (calls: CallRecord[], name: string): CallRecord => {
  const found = calls.filter((c) => c.op_name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
/** `otel_dump` as stored (stream_query records do not carry it). */
const otelDumpOf = async (call: CallRecord): Promise<unknown> => {
  const [row] = await storeRows<{ otel_dump: string }>(server(), 'SELECT otel_dump FROM calls WHERE project_id = ? AND id = ?', [call.project_id, call.id]);
  return JSON.parse(row!.otel_dump) as unknown;
};
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('WeftSpanProcessor', () => {
  it('records nested spans through await and Promise.all as one trace, ids mapped from the span ids', async () => {
    let ids: { trace: string; root: string; a: string } | undefined;
    const calls = await record('nest', () =>
      tracer.startActiveSpan('root', async (root) => {
        await Promise.all(['a', 'b'].map((name) => tracer.startActiveSpan(name, async (s) => {
          await tick();
          tracer.startActiveSpan(`${name}.leaf`, (leaf) => leaf.end());
          if (name === 'a') ids = { trace: s.spanContext().traceId, root: root.spanContext().spanId, a: s.spanContext().spanId };
          s.end();
        })));
        root.end();
      }),
    );
    expect(calls).toHaveLength(5);
    const root = byName(calls, 'root');
    expect(root.id).toBe(weftCallId(ids!.trace, ids!.root));
    expect(root.trace_id).toBe(weftTraceId(ids!.trace));
    expect(root.parent_id ?? null).toBeNull();
    for (const name of ['a', 'b']) expect(byName(calls, name).parent_id).toBe(root.id);
    expect(byName(calls, 'a.leaf').parent_id).toBe(weftCallId(ids!.trace, ids!.a));
    expect(new Set(calls.map((c) => c.trace_id))).toEqual(new Set([root.trace_id]));
    for (const c of calls) expect(c.ended_at).toMatch(ISO_UTC);
    expect(await otelDumpOf(root)).toMatchObject({ name: 'root', span_id: ids!.root, trace_id: ids!.trace, scope: { name: 'weft-test' } });
  });

  it('maps GenAI attributes to inputs, output and summary.usage', async () => {
    const calls = await record('genai', () => {
      const span = tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.request.model': 'gpt-4o-mini' } });
      span.setAttributes({
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'hello' }] }]),
        'gen_ai.usage.input_tokens': 3,
        'gen_ai.usage.output_tokens': 2,
      });
      span.end();
    });
    const call = byName(calls, 'chat gpt-4o-mini');
    expect(call.inputs).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(call.output).toEqual({ messages: [{ role: 'assistant', content: 'hello' }] });
    expect(call.summary?.usage).toEqual({ 'gpt-4o-mini': { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    expect(call.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini' });
  });

  it('rolls a failed GenAI span up to a span root and to a weft op over it: status counts, tokens and cost, each call counted once', async () => {
    const parse = op(function parse(text: string) { return text.length; });
    const chat = () => tracer.startActiveSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.request.model': 'gpt-4o-mini' } }, (span) => {
      parse('hello'); // an op under the span: counted once, through the span
      span.setAttributes({ 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 500 });
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
      span.end();
    });
    const agent = op(async function agent() { chat(); });
    const calls = await record('rollup', async () => {
      await agent();
      tracer.startActiveSpan('span-root', (root) => { chat(); root.end(); });
    });
    const usage = { 'gpt-4o-mini': { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 } };
    const [cost] = (await readCalls(server().url, calls[0]!.project_id, { include_costs: true, filter: { trace_roots_only: true } }))
      .map((c) => c.summary?.costs?.['gpt-4o-mini']?.total_cost);
    for (const root of ['agent', 'span-root']) {
      const summary = byName(calls, root).summary!;
      expect(summary, root).toMatchObject({ status: 'descendant_error', status_counts: { success: 2, error: 1 }, usage });
    }
    expect(cost).toBeGreaterThan(0);
  });

  it('turns an ERROR status and its exception event into the exception', async () => {
    const calls = await record('error', () => {
      const span = tracer.startSpan('fails');
      span.recordException(new TypeError('bad input'));
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'bad input' });
      span.end();
      const handled = tracer.startSpan('handled');
      handled.recordException(new Error('retried'));
      handled.end();
    });
    const fails = byName(calls, 'fails');
    expect(fails.exception).toMatchObject({ type: 'TypeError', message: 'bad input' });
    expect((fails.exception as { stack?: string }).stack).toContain('TypeError: bad input');
    expect(fails.summary?.status_counts).toEqual({ success: 0, error: 1 });
    expect(byName(calls, 'handled').exception ?? null).toBeNull();
  });

  it('stores a span ended twice once, a span never ended as an unfinished call, and a huge attribute', async () => {
    const huge = 'x'.repeat(300_000);
    const calls = await record('odd', () => {
      const twice = tracer.startSpan('twice');
      twice.end();
      twice.end();
      tracer.startSpan('never-ended', { attributes: { step: 1 } });
      const big = tracer.startSpan('big', { attributes: { 'input.value': huge } });
      big.end();
    });
    expect(calls.filter((c) => c.op_name === 'twice')).toHaveLength(1);
    const never = byName(calls, 'never-ended');
    expect(never.ended_at ?? null).toBeNull();
    expect(never.attributes).toMatchObject({ step: 1 });
    const big = byName(calls, 'big');
    expect(big.ended_at).toMatch(ISO_UTC);
    expect(JSON.stringify(big.inputs).length).toBeGreaterThan(1000);
  });

  it('leaves out Next.js framework spans unless a GenAI span is below them', async () => {
    const calls = await record('next', async () => {
      await tracer.startActiveSpan('GET /page', { attributes: { 'next.span_name': 'GET /page' } }, async (page) => {
        await tracer.startActiveSpan('render route', { attributes: { 'next.span_name': 'render route' } }, async (render) => {
          render.end();
        });
        page.end();
      });
      await tracer.startActiveSpan('POST /api/chat', { attributes: { 'next.span_name': 'POST /api/chat' } }, async (api) => {
        await tracer.startActiveSpan('resolve', { attributes: { 'next.span_name': 'resolve' } }, async (mid) => {
          const llm = tracer.startSpan('ai.generateText', { attributes: { 'ai.model.id': 'm' } });
          llm.end();
          mid.end();
        });
        api.end();
      });
    });
    expect(calls.map((c) => c.op_name).sort()).toEqual(['POST /api/chat', 'ai.generateText', 'resolve']);
  });
});

describe('WeftSpanExporter', () => {
  it('records the spans a BatchSpanProcessor-style processor hands it', async () => {
    const own = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new WeftSpanExporter())] });
    const t = own.getTracer('composed');
    const calls = await record('exporter', () =>
      t.startActiveSpan('outer', (outer) => {
        t.startSpan('inner', {}, trace.setSpan(context.active(), outer)).end();
        outer.end();
      }),
    );
    await own.shutdown();
    expect(byName(calls, 'inner').parent_id).toBe(byName(calls, 'outer').id);
  });
});
