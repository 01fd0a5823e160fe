// @weft-test: isolated runtime (a framework's process-wide registration, or OpenTelemetry's global context manager)
// Ops in the OTel context: OTel spans (an undici request among them) made inside an op are its children, an op inside an OTel span is the span's child.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, ROOT_CONTEXT, trace, TraceFlags, type SpanContext, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
let provider: BasicTracerProvider;
let tracer: Tracer;
let undici: UndiciInstrumentation;
let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('ctx-test');
  undici = new UndiciInstrumentation();
  undici.setTracerProvider(provider);
  undici.enable();
  upstream = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/thing`;
});
afterAll(async () => {
  undici.disable();
  await provider.shutdown();
  trace.disable();
  context.disable();
  await new Promise((r) => upstream.close(r));
});

async function record(label: string, body: () => unknown): Promise<CallRecord[]> {
  const project = uniqueProject(label);
  init({ project, baseUrl: server().url, flushIntervalMs: 20 });
  await body();
  await provider.forceFlush();
  expect((await flush()).dropped).toBe(0);
  return readCalls(server().url, project);
}
const named = (calls: CallRecord[], name: string): CallRecord => {
  const found = calls.filter((c) => c.op_name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('ops in the OTel context', () => {
  it('makes an undici/fetch request inside an op its child, and records no span for weft\'s own export requests', async () => {
    const fetchThing = op(async function fetchThing() {
      const res = await fetch(upstreamUrl);
      return res.text();
    });
    const calls = await record('http', () => fetchThing());
    const parent = named(calls, 'fetchThing');
    const http = calls.filter((c) => c.parent_id === parent.id);
    expect(http).toHaveLength(1);
    expect(http[0]!.op_name).toBe('GET');
    expect(http[0]!.attributes).toMatchObject({ 'url.full': upstreamUrl });
    expect(http[0]!.trace_id).toBe(parent.trace_id);
    expect(calls).toHaveLength(2);
  });

  it('nests both ways through await and Promise.all: op > span > op > span', async () => {
    const leaf = op(async function leaf(i: number) {
      await tick();
      tracer.startActiveSpan(`db.query ${i}`, (s) => s.end());
      return i;
    });
    const agent = op(async function agent() {
      return Promise.all([0, 1].map((i) => tracer.startActiveSpan(`step ${i}`, async (s) => {
        await tick();
        const r = await leaf(i);
        s.end();
        return r;
      })));
    });
    const calls = await record('both', () => agent());
    const root = named(calls, 'agent');
    expect(root.parent_id ?? null).toBeNull();
    for (const i of [0, 1]) {
      const step = named(calls, `step ${i}`);
      expect(step.parent_id).toBe(root.id);
      const leaves = calls.filter((c) => c.op_name === 'leaf' && c.parent_id === step.id);
      expect(leaves, `leaf under step ${i}`).toHaveLength(1);
      expect(named(calls, `db.query ${i}`).parent_id).toBe(leaves[0]!.id);
    }
    expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
    expect(calls).toHaveLength(7);
  });

  it('puts an op started inside an OTel root span into that span\'s trace', async () => {
    const inner = op(function inner() {
      return 1;
    });
    let traceId = '';
    const calls = await record('under-span', () => tracer.startActiveSpan('request', async (s) => {
      traceId = s.spanContext().traceId;
      await tick();
      inner();
      s.end();
    }));
    const span = named(calls, 'request');
    expect(named(calls, 'inner').parent_id).toBe(span.id);
    expect(span.trace_id.replaceAll('-', '')).toBe(traceId);
  });
  it('keeps a Next.js framework span that holds an op, and drops one that holds none', async () => {
    const handler = op(function handler() {
      return 'ok';
    });
    const calls = await record('next-weft', async () => {
      await tracer.startActiveSpan('GET /static', { attributes: { 'next.span_name': 'GET /static' } }, async (s) => {
        await tick();
        s.end();
      });
      await tracer.startActiveSpan('POST /api', { attributes: { 'next.span_name': 'POST /api' } }, async (s) => {
        await tick();
        handler();
        s.end();
      });
    });
    expect(calls.map((c) => c.op_name).sort()).toEqual(['POST /api', 'handler']);
    expect(named(calls, 'handler').parent_id).toBe(named(calls, 'POST /api').id);
  });

  it('an op of another process joined by traceparent adds its tokens and itself to the root of the process that sent it', async () => {
    const usage = { 'gpt-4o-mini': { prompt_tokens: 13, completion_tokens: 12, requests: 1 } };
    let sent: SpanContext | undefined; // what a traceparent header carries from the tool call
    const tool = op(async function tool() {
      await tick();
      sent = trace.getSpanContext(context.active());
    });
    const agent = op(async function agent() {
      await tool();
    });
    const remoteWork = op(async function remoteWork() {
      return 'done';
    }, { summarize: () => ({ usage }) });
    const calls = await record('remote-op', async () => {
      await agent();
      // "process B": no weft call running, the OTel context extracted from the traceparent
      const remote = trace.setSpanContext(ROOT_CONTEXT, { traceId: sent!.traceId, spanId: sent!.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
      await context.with(remote, () => remoteWork());
    });
    expect(named(calls, 'remoteWork').parent_id).toBe(named(calls, 'tool').id);
    for (const name of ['agent', 'tool']) expect(named(calls, name).summary, name).toMatchObject({ usage, status_counts: { success: name === 'agent' ? 3 : 2, error: 0 } });
  });
});
