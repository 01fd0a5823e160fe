// Child of the guard, copied into a packed app (lib/packed.ts) and run there with plain `node`: a traced sync call timed inline (flushed between samples) and in a burst that never pauses, as a user's app loads weft.
// Env: BURST_ENTRY esm | cjs (how `weft-trace` is loaded: `import` or `require`), BURST_MODE weft | otel (the OTel
// twin: a span per call through the BatchSpanProcessor and the OTLP/HTTP exporter, from the repository's
// node_modules at BURST_ROOT; BURST_OTEL_QUEUE its queue size), BURST_SINK (the loopback sink's URL), BURST_CALLS (calls in the burst). weft keeps
// init()'s defaults: only `project` and `baseUrl` are set (BURST_INIT, a JSON object of more init() options, is for trying
// other settings by hand). Prints one JSON line: see `result` below.
import { createRequire } from 'node:module';

const entry = process.env.BURST_ENTRY ?? 'esm';
const mode = process.env.BURST_MODE ?? 'weft';
const sinkUrl = process.env.BURST_SINK;
const CALLS = Number(process.env.BURST_CALLS) || 200_000;
/** Calls per timed sample: a sample's mean is one per-call figure; the p50 is taken over samples. */
const SAMPLE = 256;
const INLINE_SAMPLES = 400;

/** Calls made by the traced function's body (a check that the tracer never skips the user's code). */
let made = 0;

async function setup() {
  if (mode === 'otel') return setupOtel();
  const weft = entry === 'cjs' ? createRequire(import.meta.url)('weft-trace') : await import('weft-trace');
  weft.init({ project: 'bench/burst', baseUrl: sinkUrl, ...JSON.parse(process.env.BURST_INIT || '{}') });
  const fn = weft.op((x) => {
    made++;
    return x;
  }, { name: 'identity' });
  return { fn, flush: () => weft.flush(), shutdown: () => weft.shutdown() };
}

/** The OTel twin: one active span per call with inputs and output as JSON attributes (as bench/lib/otel.ts), exported by OTLP/HTTP JSON with the SDK's defaults. */
async function setupOtel() {
  const req = createRequire(`${process.env.BURST_ROOT}/package.json`);
  const { context, trace } = req('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = req('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, BatchSpanProcessor } = req('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = req('@opentelemetry/exporter-trace-otlp-http');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // BURST_OTEL_QUEUE: the processor's maxQueueSize (default 2,048, which drops most of a burst); a queue as large as
  // the burst exports every span, for a CPU per exported span at 100% exported
  const queue = Number(process.env.BURST_OTEL_QUEUE) || undefined;
  // (and exports as many batches at once as the queue can hold: the exporter refuses more than its concurrencyLimit,
  // 30, which forceFlush of a full queue passes)
  const exporter = new OTLPTraceExporter({ url: `${sinkUrl}/v1/traces`, ...(queue ? { concurrencyLimit: Math.ceil(queue / 512) + 1 } : {}) });
  const processor = new BatchSpanProcessor(exporter, queue ? { maxQueueSize: queue } : {});
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('weft-bench');
  const fn = (x) =>
    tracer.startActiveSpan('identity', (span) => {
      span.setAttribute('inputs', JSON.stringify({ x }));
      try {
        made++;
        span.setAttribute('output', JSON.stringify(x));
        return x;
      } finally {
        span.end();
      }
    });
  return { fn, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/** Per-call ns of `samples` samples of SAMPLE calls each; `between` runs untimed after each sample. */
async function sampled(fn, samples, between) {
  const perCall = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < SAMPLE; i++) fn(i);
    perCall[s] = Number(process.hrtime.bigint() - t0) / SAMPLE;
    if (between) await between();
  }
  return perCall;
}

function p50(xs) {
  const sorted = Float64Array.from(xs).sort();
  return sorted[sorted.length >> 1];
}

const { fn, flush, shutdown } = await setup();
await sampled(fn, 40, flush); // warm-up: the JIT and the connection
await flush();
const inline = await sampled(fn, INLINE_SAMPLES, flush);
await flush();
const rss0 = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
// the burst: one call after another, no turn of the event loop until the last
const burst = await sampled(fn, Math.ceil(CALLS / SAMPLE), undefined);
const burstNs = Number(process.hrtime.bigint() - t0);
const rssBurst = process.memoryUsage().rss;
await flush();
const cpu = process.cpuUsage(cpu0);
const rssPeak = Math.max(rssBurst, process.memoryUsage().rss);
await shutdown();
const burstCalls = burst.length * SAMPLE;
const result = {
  entry,
  mode,
  inlineP50Ns: p50(inline),
  burstP50Ns: p50(burst),
  burstMeanNs: burstNs / burstCalls,
  /** process CPU (user + system) from the burst's first call until flush() resolved, per call made in the burst, ns */
  burstCpuNsPerCall: ((cpu.user + cpu.system) * 1000) / burstCalls,
  burstCalls,
  /** every call made since load: warm-up, inline and burst */
  made,
  rssGrowthBytes: rssPeak - rss0,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
