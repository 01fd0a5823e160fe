// Child of nested.ts: one round of the nested workload for one mode (weft or otel); reports process CPU per traced call.
// Workload (issue 31): ROOTS roots, each an async op awaiting two async child ops (3 traced async bodies per root),
// a turn of the event loop every 16 roots, then flush(). weft exports to a sink in another process that answers
// 200 to every POST /call/upsert_batch at once and counts the end items it received; OpenTelemetry runs the same
// shape as spans through a BatchSpanProcessor into a discarding exporter.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { report } from './lib/child.js';
import { startSink } from './lib/sink.js';
import { pathToFileURL } from 'node:url';
import { QUICK } from './lib/table.js';
// Each mode loads only what it runs (OpenTelemetry, undici, weft's SDK), so no round's heap carries another's
// modules: a larger old generation makes every major GC in the timed part dearer.

/** What one round reports. */
export interface NestedResult {
  mode: 'weft' | 'otel' | 'otlp' | 'plain' | 'floor';
  /** Traced calls (spans) made in the timed part: ROOTS x 3. */
  calls: number;
  cpuNsPerCall: number;
  /** Calls the far end received (end items, or exported spans), warm-up included. */
  received: number;
  expected: number;
}

export const ROOTS = QUICK ? 1_000 : 3_000;
const WARMUP_ROOTS = 500;
const PER_TURN = 16;

async function leaf(x: number): Promise<number> {
  await Promise.resolve();
  return x * 2;
}

/**
 * `BENCH_PROFILE=<file>`: a V8 CPU profile of the timed part only (open it in Chrome DevTools, or sum it by
 * function), to see where the CPU of this workload goes: the ops, the drain, the order gate, the packing.
 */
async function profiled<T>(work: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const out = await work();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  return out;
}

async function drive(root: (i: number) => Promise<unknown>, roots: number): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < roots; i++) {
    pending.push(root(i));
    if ((i + 1) % PER_TURN === 0) await nextTurn();
  }
  await Promise.all(pending);
}

/** Traced calls in the timed part (3 per root), and calls the far end must receive (warm-up included). */
const CALLS = ROOTS * 3;
const EXPECTED = (ROOTS + WARMUP_ROOTS) * 3;

/** Warms up, then times ROOTS roots and the final flush: process CPU (user + system) per traced call, ns. */
async function timed(root: (i: number) => Promise<unknown>, flush: () => Promise<unknown>): Promise<number> {
  await drive(root, WARMUP_ROOTS);
  await flush();
  const before = process.cpuUsage();
  await profiled(async () => {
    await drive(root, ROOTS);
    await flush();
  });
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / CALLS;
}

async function weftRound(): Promise<NestedResult> {
  // the SDK entry alone, as an application loads it (bench/lib/weft.js also loads the server and the OTel bridge)
  const dist = process.env.WEFT_BENCH_DIST;
  const weft = (await import(dist ? pathToFileURL(`${dist.replace(/\/?$/, '/')}index.js`).href : '../packages/weft-trace/src/index.js')) as typeof import('../packages/weft-trace/src/index.js');
  const { url, received } = await startSink();
  weft.init({ project: 'bench/nested', baseUrl: url });
  const child = weft.op(leaf, { name: 'child' });
  const root = weft.op(async (i: number) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0), { name: 'root' });
  const cpuNsPerCall = await timed(root, () => weft.flush());
  await weft.shutdown();
  return { mode: 'weft', calls: CALLS, cpuNsPerCall, received: await received(), expected: EXPECTED };
}

/** OpenTelemetry as a user exports it: `otel` discards the spans, `otlp` sends them as OTLP/JSON over HTTP to the sink. */
async function otelRound(mode: 'otel' | 'otlp'): Promise<NestedResult> {
  const { setupOtel, otelAsync } = await import('./lib/otel.js');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const sink = mode === 'otlp' ? await startSink() : undefined;
  const otel = sink ? setupOtel(65_536, new OTLPTraceExporter({ url: `${sink.url}/v1/traces` })) : setupOtel();
  const child = otelAsync(otel.tracer, 'child', ['x'], leaf);
  const root = otelAsync(otel.tracer, 'root', ['i'], async (i: number) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0));
  const cpuNsPerCall = await timed(root, () => otel.flush());
  await otel.shutdown();
  const received = sink ? await sink.received() : otel.exported();
  return { mode, calls: CALLS, cpuNsPerCall, received, expected: EXPECTED };
}

/** The workload untraced: the baseline every tracer's cost is added to. */
function plainFns(): (i: number) => Promise<number> {
  const root = async (i: number): Promise<number> => (await Promise.all([leaf(i), leaf(i + 1)])).reduce((a, b) => a + b, 0);
  return root;
}

/**
 * The floor of exporting this workload as weft's wire format asks (issue 31: "the bytes weft must serialize and
 * send"): the untraced workload, plus per call `JSON.stringify` of the same start and end items weft sends (same
 * fields, same lengths: ids from `crypto.randomUUID()`, ISO times from `toISOString()`), joined 500 to a
 * `{"batch":[...]}` body and POSTed to the same sink over one keep-alive connection pool (undici, like weft's
 * client). No context, no parent tracking beyond passing the ids down, no queue caps, no order gate, no retries.
 */
async function floorRound(): Promise<NestedResult> {
  const { Agent, request } = await import('undici');
  const { url, received } = await startSink();
  const agent = new Agent({ connections: 2 });
  const project = 'bench/nested';
  let items: string[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const send = (): void => {
    if (items.length === 0) return;
    const body = `{"batch":[${items.join(',')}]}`;
    items = [];
    const p = request(`${url}/call/upsert_batch`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent }).then((r) => r.body.text());
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const push = (item: string): void => {
    items.push(item);
    if (items.length >= 500) send();
  };
  const traced = async <R>(opName: string, inputs: object, traceId: string | undefined, parentId: string | undefined, body: (id: string, traceId: string) => Promise<R>): Promise<R> => {
    const id = crypto.randomUUID();
    const start: Record<string, unknown> = { project_id: project, id, trace_id: traceId ?? id, op_name: opName, started_at: new Date().toISOString(), inputs, attributes: {} };
    if (parentId) start.parent_id = parentId;
    push(JSON.stringify({ mode: 'start', req: { start } }));
    const output = await body(id, traceId ?? id);
    push(JSON.stringify({ mode: 'end', req: { end: { project_id: project, id, ended_at: new Date().toISOString(), summary: { status_counts: { success: 1, error: 0 } }, output } } }));
    return output;
  };
  const child = (x: number, traceId: string, parentId: string): Promise<number> => traced('child', { x }, traceId, parentId, () => leaf(x));
  const root = (i: number): Promise<number> =>
    traced('root', { i }, undefined, undefined, async (id, traceId) => (await Promise.all([child(i, traceId, id), child(i + 1, traceId, id)])).reduce((a, b) => a + b, 0));
  const flush = async (): Promise<void> => {
    send();
    while (inFlight.size > 0) await Promise.all(inFlight);
  };
  const cpuNsPerCall = await timed(root, flush);
  await agent.close();
  return { mode: 'floor', calls: CALLS, cpuNsPerCall, received: await received(), expected: EXPECTED };
}

async function plainRound(): Promise<NestedResult> {
  const cpuNsPerCall = await timed(plainFns(), async () => undefined);
  return { mode: 'plain', calls: CALLS, cpuNsPerCall, received: EXPECTED, expected: EXPECTED };
}

/** What a loop-delay round reports. */
export interface LoopResult {
  mode: 'loop-off' | 'loop-weft';
  /** p99 and max of the event loop's delay while producing and exporting, ms (`monitorEventLoopDelay`, 1 ms resolution). */
  p99Ms: number;
  maxMs: number;
  /** Traced calls made per turn of the event loop (3 per root). */
  callsPerTurn: number;
  received: number;
  expected: number;
}

/** Roots of a loop-delay round: long enough for a p99 of thousands of samples. */
export const LOOP_ROOTS = QUICK ? 10_000 : 30_000;

/**
 * Issue 31 point 5: the event loop's delay while the same producer runs (the nested roots, {@link PER_TURN} per
 * turn, pausing 5 ms at a time while more than 20,000 events wait), with tracing disabled (`init({enabled:
 * false})`) or exporting to the sink; flush included.
 */
async function loopRound(traced: boolean): Promise<LoopResult> {
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const { setTimeout: sleep } = await import('node:timers/promises');
  const dist = process.env.WEFT_BENCH_DIST;
  const weft = (await import(dist ? pathToFileURL(`${dist.replace(/\/?$/, '/')}index.js`).href : '../packages/weft-trace/src/index.js')) as typeof import('../packages/weft-trace/src/index.js');
  const { url, received } = await startSink();
  weft.init({ project: 'bench/nested-loop', baseUrl: url, enabled: traced });
  const child = weft.op(leaf, { name: 'child' });
  const root = weft.op(async (i: number) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0), { name: 'root' });
  await drive(root, WARMUP_ROOTS);
  await weft.flush();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < LOOP_ROOTS; i++) {
    pending.push(root(i));
    if ((i + 1) % PER_TURN === 0) {
      await nextTurn();
      while (weft.getExportStats().queueItems > 20_000) await sleep(5);
    }
  }
  await Promise.all(pending);
  await weft.flush();
  delay.disable();
  await weft.shutdown();
  const expected = traced ? (LOOP_ROOTS + WARMUP_ROOTS) * 3 : 0;
  return { mode: traced ? 'loop-weft' : 'loop-off', p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, callsPerTurn: PER_TURN * 3, received: await received(), expected };
}

// nested.ts imports this module for its constants: a round runs only when a mode is given
const mode = process.argv[2];
if (mode === undefined || !process.send) {
  // imported, not forked
} else if (mode === 'loop-off' || mode === 'loop-weft') report(await loopRound(mode === 'loop-weft'));
else report(mode === 'otel' || mode === 'otlp' ? await otelRound(mode) : mode === 'floor' ? await floorRound() : mode === 'plain' ? await plainRound() : await weftRound());
