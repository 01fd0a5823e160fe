// @weft-test: isolated (OpenTelemetry's global context manager)
// An incoming W3C `sampled=0` through the OTel bridge: an op running under an OTel span whose sampled flag is off
// (OTel's own sampler said no, or a `traceparent` ending in -00 was extracted) joins that trace; with
// init({ sampling }) on, the trace is left out whole, as an MCP `_meta.traceparent` with the flag off is (a tail rule
// does not bring it back: the caller sends nothing of it). With sampling off, the calls are recorded as before.
import { context, defaultTextMapGetter, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, type Sampler } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getExportStats, init, op, shutdown, type SamplingOptions } from '../../src/index.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

const child = op(async function child(fail: boolean) {
  if (fail) throw new Error('tool failed');
  return trace.getActiveSpan()?.spanContext().traceFlags;
});
const handler = op(async function handler(fail: boolean) {
  return child(fail);
});

/** Runs `handler` under a span of an OTel tracer sampled by `sampler`; the calls recorded and the flag OTel code saw inside. */
async function underOtelSpan(sampler: Sampler, sampling: SamplingOptions | undefined, fail = false): Promise<{ ops: string[]; flags: number | undefined }> {
  const project = uniqueProject('otel-incoming');
  init({ project, baseUrl: server().url, printViewerLink: false, ...(sampling ? { sampling } : {}) });
  const tracer = new BasicTracerProvider({ sampler }).getTracer('app');
  const flags = await tracer.startActiveSpan('http.server', async (span) => {
    try {
      return await handler(fail);
    } catch {
      return undefined;
    } finally {
      span.end();
    }
  });
  await shutdown();
  return { ops: (await readCalls(server().url, project)).map((c) => c.op_name).sort(), flags };
}

it('leaves the trace out under an OTel span whose sampled flag is off, with sampling on (a tail rule keeps nothing of it)', async () => {
  const before = getExportStats().sampling.sampledOutTraces;
  const off = await underOtelSpan(new AlwaysOffSampler(), { rate: 1 });
  expect(off.ops).toEqual([]);
  // OTel code below the op (an HTTP client's traceparent) sees the same decision
  expect(off.flags).toBe(TraceFlags.NONE);
  expect(getExportStats().sampling.sampledOutTraces).toBeGreaterThan(before);
  expect((await underOtelSpan(new AlwaysOffSampler(), { rate: 1, keepErrors: true }, true)).ops).toEqual([]);
});

it('records the trace under a sampled OTel span with sampling on, and under any OTel span with sampling off', async () => {
  expect((await underOtelSpan(new AlwaysOnSampler(), { rate: 1 })).ops).toEqual(['child', 'handler']);
  expect((await underOtelSpan(new AlwaysOffSampler(), undefined)).ops).toEqual(['child', 'handler']);
});

it('honours a traceparent ending in -00 extracted by the W3C propagator', async () => {
  const project = uniqueProject('otel-incoming-tp');
  init({ project, baseUrl: server().url, printViewerLink: false, sampling: { rate: 1 } });
  const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' };
  const remote = new W3CTraceContextPropagator().extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  await context.with(remote, () => handler(false));
  const sampledHeaders = { traceparent: '00-1af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
  const kept = new W3CTraceContextPropagator().extract(ROOT_CONTEXT, sampledHeaders, defaultTextMapGetter);
  await context.with(kept, () => handler(false));
  await shutdown();
  const calls = await readCalls(server().url, project);
  expect(calls.map((c) => c.trace_id.replaceAll('-', '')).sort()).toEqual(['1af7651916cd43dd8448eb211c80319c', '1af7651916cd43dd8448eb211c80319c']);
});
