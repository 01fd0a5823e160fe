// OTel both ways: op() with and without an OTel context manager, and OTel spans/s into weft (WeftSpanProcessor, OTLP ingest) next to OTel's own OTLP/HTTP exporter into a discarding sink.
import { spawn } from 'node:child_process';
import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { contextLine } from './lib/context-line.js';
import { nsPerCall } from './lib/measure.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, ratio } from './lib/table.js';
import { weft, weftOtel } from './lib/weft.js';
import { addWith, Tally } from './lib/work.js';

if (!weftOtel) {
  console.log('otel.bench.ts: skipped, this build has no weft/otel');
  process.exit(0);
}
const SPANS = QUICK ? 5_000 : 20_000;
const server = await startChildServer();
weft.setDiagLevel('error');
const problems: string[] = [];

// 1. op() ns/call: no context manager (today's path), then with AsyncLocalStorageContextManager registered.
weft.init({ project: 'bench/otel-op', baseUrl: server.url });
const flushWeft = (): Promise<unknown> => weft.flush();
const t = new Tally();
const syncOp = weft.op(addWith(t), { name: 'sync_small' });
const plainAdd = addWith(new Tally());
const plainNs = await nsPerCall(() => plainAdd(1, 2));
const noCmNs = await nsPerCall(() => syncOp(1, 2), flushWeft);
const cm = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(cm);
const withCmNs = await nsPerCall(() => syncOp(1, 2), flushWeft);
const opRows = [
  ['plain call (floor)', num(plainNs, 1), '1.00x', ''],
  ['op() sync, no OTel context manager', num(noCmNs, 1), ratio(noCmNs, plainNs), '1.00x'],
  ['op() sync, context manager registered (bridged)', num(withCmNs, 1), ratio(withCmNs, plainNs), ratio(withCmNs, noCmNs)],
];
await weft.flush();

// 2. spans/s: the same spans (GenAI attributes) through three pipelines, timed from the first span to the last acknowledged.
function makeSpans(tracer: Tracer, n: number): void {
  for (let i = 0; i < n; i++) {
    tracer.startActiveSpan('chat gpt-4o-mini', (span) => {
      span.setAttributes({
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"What is 2+2?"}]}]',
        'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"4"}]}]',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 1,
      });
      span.end();
    });
  }
}
async function spansPerSecond(processor: SpanProcessor, resource: Record<string, string>, done: () => Promise<unknown>): Promise<number> {
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes(resource), spanProcessors: [processor] });
  const t0 = performance.now();
  makeSpans(provider.getTracer('bench'), SPANS);
  await provider.forceFlush();
  await done();
  const s = (performance.now() - t0) / 1000;
  await provider.shutdown();
  return SPANS / s;
}
const batch = { maxQueueSize: SPANS, maxExportBatchSize: 512, scheduledDelayMillis: 50 };

weft.init({ project: 'bench/otel-processor', baseUrl: server.url });
const processorRate = await spansPerSecond(new weftOtel!.WeftSpanProcessor(), {}, () => weft.flush());
const stored1 = countCompleteCalls(server.dbPath, 'bench/otel-processor');
if (stored1 !== SPANS) problems.push(`WeftSpanProcessor: ${SPANS} spans, ${stored1} calls stored`);

// concurrencyLimit: the exporter refuses exports past 30 in flight by default; the run makes them faster than that.
const ingest = new OTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, concurrencyLimit: 1_000 });
const ingestRate = await spansPerSecond(new BatchSpanProcessor(ingest, batch), { 'weft.project': 'bench/otel-ingest' }, async () => {});
const stored2 = countCompleteCalls(server.dbPath, 'bench/otel-ingest');
if (stored2 !== SPANS) problems.push(`OTLP ingest: ${SPANS} spans, ${stored2} calls stored`);

// The discarding sink runs in its own process, as weft's server does.
const sink = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end()); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((resolve) => sink.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
const discardRate = await spansPerSecond(new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces`, concurrencyLimit: 1_000 }), batch), {}, async () => {});
sink.kill();

await weft.shutdown();
trace.disable();
context.disable();
await server.close();

printTable(`OTel both ways: op() ns per call (median; OTel itself is in the main table) · ${contextLine()}`, ['case', 'ns/call', 'x plain', 'x no CM'], opRows);
printTable(`OTel spans/s into weft, ${SPANS} GenAI spans, flush included · ${contextLine()}`, ['pipeline', 'spans/s', 'x OTLP to discard'], [
  ['WeftSpanProcessor -> weft exporter -> local server', num(processorRate), ratio(processorRate, discardRate)],
  ['OTLP/HTTP protobuf exporter -> POST /otel/v1/traces', num(ingestRate), ratio(ingestRate, discardRate)],
  ['OTLP/HTTP protobuf exporter -> discarding sink (baseline)', num(discardRate), '1.00x'],
]);
if (problems.length > 0) {
  console.log(`PROBLEMS: ${problems.join('; ')}`);
  process.exitCode = 1;
}
