// @weft-test: postgres
// OTLP ingest on the local server: the real OTLP/HTTP exporters (JSON, protobuf, gzip) into POST /otel/v1/traces; auth, bad bodies.
import { gzipSync } from 'node:zlib';
import { SpanStatusCode, context, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weftCallId } from 'weft-trace/otel';
import type { CallRecord } from 'weft-trace';
import type { RunningServer } from 'weft-server';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { ISO_UTC } from 'weft-test-kit/shapes.js';

const server = useTestServer();
const path = '/otel/v1/traces';

/** Sends spans made by `body` through `exporter` (a fresh SDK provider with `resource`), then reads `project`'s calls. */
async function viaExporter(exporter: SpanExporter, project: string, body: (t: Tracer) => void, resource: Record<string, string> = {}): Promise<CallRecord[]> {
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes(resource), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  body(provider.getTracer('ingest-test'));
  await provider.forceFlush();
  await provider.shutdown();
  return readCalls(server().url, project);
}

/** A root span and an LLM child that failed: GenAI attributes, an ERROR status. */
function chat(t: Tracer): void {
  const root = t.startSpan('agent');
  const llm = t.startSpan('chat gpt-4o-mini', {
    attributes: {
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 2,
    },
  }, trace.setSpan(context.active(), root));
  llm.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
  llm.end();
  root.end();
}

function checkChat(calls: CallRecord[]): void {
  expect(calls).toHaveLength(2);
  const agent = calls.find((c) => c.op_name === 'agent')!;
  const llm = calls.find((c) => c.op_name === 'chat gpt-4o-mini')!;
  expect(llm.parent_id).toBe(agent.id);
  expect(llm.trace_id).toBe(agent.trace_id);
  expect(llm.inputs).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  expect(llm.summary?.usage).toEqual({ 'gpt-4o-mini': { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });
  expect(llm.exception).toMatchObject({ message: 'rate limited' });
  expect(agent.ended_at).toMatch(ISO_UTC);
}

describe('POST /otel/v1/traces with the real OTLP exporters', () => {
  it('stores the spans of the OTLP/HTTP JSON exporter, project from the project_id header', async () => {
    const project = uniqueProject('otlp-json');
    const calls = await viaExporter(new JsonExporter({ url: server().url + path, headers: { project_id: project } }), project, chat);
    checkChat(calls);
  });

  it('stores the spans of the OTLP/HTTP protobuf exporter, gzip, project from the weft.project resource attribute', async () => {
    const project = uniqueProject('otlp-proto');
    const exporter = new ProtoExporter({ url: server().url + path, compression: 'gzip' as never });
    const calls = await viaExporter(exporter, project, chat, { 'weft.project': project });
    checkChat(calls);
  });

  it('takes an SDK configured only with OTEL_EXPORTER_OTLP_ENDPOINT (project otel/<service.name>)', async () => {
    const service = `svc-${Math.random().toString(36).slice(2, 8)}`;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `${server().url}/otel`;
    try {
      const calls = await viaExporter(new ProtoExporter(), `otel/${service}`, (t) => t.startSpan('hello').end(), { 'service.name': service });
      expect(calls.map((c) => c.op_name)).toEqual(['hello']);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    }
  });
});

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const span = (spanId: string, extra: Record<string, unknown> = {}) => ({
  traceId: TRACE, spanId, name: `s-${spanId}`, kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000', ...extra,
});
const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'raw' }, spans }] }] });

async function post(body: BodyInit, headers: Record<string, string>, url = server().url): Promise<Response> {
  return fetch(url + path, { method: 'POST', body, headers });
}

describe('POST /otel/v1/traces refuses bad bodies and stores nothing of them', () => {
  it('answers 400 with detail for undecodable protobuf, JSON and gzip', async () => {
    const project = uniqueProject('bad');
    const cases: [BodyInit, Record<string, string>, string][] = [
      [new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), { 'content-type': 'application/x-protobuf' }, 'protobuf_invalid'],
      ['{"resourceSpans": [', { 'content-type': 'application/json' }, 'json_invalid'],
      [new Uint8Array([1, 2, 3, 4]), { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'gzip_invalid'],
    ];
    for (const [body, headers, type] of cases) {
      const res = await post(body, { ...headers, project_id: project });
      expect(res.status, type).toBe(400);
      const detail = ((await res.json()) as { detail: { loc: string[]; type: string }[] }).detail;
      expect(detail[0]).toMatchObject({ loc: ['body'], type });
    }
    expect(await readCalls(server().url, project)).toEqual([]);
  });

  it('answers 422 naming the bad span, and stores none of the good ones beside it', async () => {
    const project = uniqueProject('half');
    const body = request([span('00f067aa0ba902b7'), span('00f067aa0ba902b8', { traceId: 'xyz' }), span('00f067aa0ba902b9', { startTimeUnixNano: 'soon' })]);
    const res = await post(JSON.stringify(body), { 'content-type': 'application/json', project_id: project });
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
    expect(detail.map((d) => d.loc.join('.'))).toEqual([
      'body.resourceSpans.0.scopeSpans.0.spans.1.traceId',
      'body.resourceSpans.0.scopeSpans.0.spans.2.startTimeUnixNano',
    ]);
    expect(await readCalls(server().url, project)).toEqual([]);
  });

  it('takes a gzipped JSON body written by hand, a span without an end as a running call, and a huge attribute', async () => {
    const project = uniqueProject('raw');
    const huge = 'y'.repeat(500_000);
    const body = request([span('00f067aa0ba902b7', { attributes: [{ key: 'input.value', value: { stringValue: huge } }] }), span('00f067aa0ba902b8', { endTimeUnixNano: undefined, parentSpanId: '00f067aa0ba902b7' })]);
    const res = await post(gzipSync(JSON.stringify(body)), { 'content-type': 'application/json', 'content-encoding': 'gzip', project_id: project });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const calls = await readCalls(server().url, project);
    const running = calls.find((c) => c.op_name === 's-00f067aa0ba902b8')!;
    expect(running.ended_at ?? null).toBeNull();
    expect(running.parent_id).toBe(weftCallId(TRACE, '00f067aa0ba902b7'));
    expect((calls.find((c) => c.op_name === 's-00f067aa0ba902b7')!.inputs as { input: string }).input).toHaveLength(500_000);
  });
});

describe('POST /otel/v1/traces rolls status counts and usage up the trace', () => {
  const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
  // root -> mid -> llm; the llm span failed and used tokens
  const spans = {
    root: span('00000000000000a1', { name: 'agent' }),
    mid: span('00000000000000a2', { name: 'plan', parentSpanId: '00000000000000a1' }),
    llm: span('00000000000000a3', {
      name: 'chat gpt-4o-mini', parentSpanId: '00000000000000a2', status: { code: 2, message: 'rate limited' },
      attributes: [attr('gen_ai.request.model', { stringValue: 'gpt-4o-mini' }), attr('gen_ai.usage.input_tokens', { intValue: 7 }), attr('gen_ai.usage.output_tokens', { intValue: 2 })],
    }),
  };
  type Name = keyof typeof spans;

  it.each<[string, Name[][]]>([
    ['children first', [['llm'], ['mid'], ['root']]],
    ['parents first', [['root'], ['mid'], ['llm']]],
    ['the middle last', [['root', 'llm'], ['mid']]],
  ])('a failed LLM span makes its ancestors descendant_error with its tokens and cost, %s', async (_, requests) => {
    const project = uniqueProject('rollup');
    for (const names of requests) {
      const res = await post(JSON.stringify(request(names.map((n) => spans[n]))), { 'content-type': 'application/json', project_id: project });
      expect(res.status).toBe(200);
    }
    const calls = await readCalls(server().url, project, { include_costs: true });
    const by = (op: string) => calls.find((c) => c.op_name === op)!.summary!;
    const usage = { 'gpt-4o-mini': { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } };
    expect(by('chat gpt-4o-mini')).toMatchObject({ status: 'error', status_counts: { success: 0, error: 1 }, usage });
    expect(by('plan')).toMatchObject({ status: 'descendant_error', status_counts: { success: 1, error: 1 }, usage });
    expect(by('agent')).toMatchObject({ status: 'descendant_error', status_counts: { success: 2, error: 1 }, usage });
    expect(by('agent').costs?.['gpt-4o-mini']?.total_cost).toBe(by('chat gpt-4o-mini').costs?.['gpt-4o-mini']?.total_cost);
    expect(by('agent').costs?.['gpt-4o-mini']?.total_cost).toBeGreaterThan(0);
    const roots = await readCalls(server().url, project, {
      filter: { trace_roots_only: true },
      query: { $expr: { $eq: [{ $getField: 'summary.status' }, { $literal: 'descendant_error' }] } },
    });
    expect(roots.map((c) => c.op_name)).toEqual(['agent']);
  });
});

describe('POST /otel/v1/traces with API keys', () => {
  let keyed: RunningServer;
  beforeAll(async () => {
    keyed = await startTestServer({ apiKeys: ['k-all', 'k-one=me/allowed'] });
  });
  afterAll(async () => keyed.close());
  const basic = (key: string) => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;

  it('needs a key, and keeps a key to the projects it is granted', async () => {
    const body = JSON.stringify(request([span('00f067aa0ba902b7')]));
    const json = { 'content-type': 'application/json' };
    expect((await post(body, { ...json, project_id: 'me/allowed' }, keyed.url)).status).toBe(401);
    expect((await post(body, { ...json, project_id: 'me/other', authorization: basic('k-one') }, keyed.url)).status).toBe(403);
    expect((await post(body, { ...json, project_id: 'me/allowed', authorization: basic('k-one') }, keyed.url)).status).toBe(200);
    const proto = new ProtoExporter({ url: keyed.url + path, headers: { authorization: basic('k-all'), project_id: 'me/any' } });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(proto)] });
    provider.getTracer('keyed').startSpan('keyed').end();
    await provider.shutdown();
    const rows = await storeRows<{ op_name: string }>(keyed, 'SELECT op_name FROM calls WHERE project_id = ?', ['me/any']);
    expect(rows.map((r) => r.op_name)).toEqual(['keyed']);
  });
});
