// Child of lib/instructions.ts, run under valgrind (callgrind): one workload of the SDK build in argv[2], sized by argv[4], so that the difference of two sizes is the instructions of the calls alone.
// Plain JavaScript (no tsx loader under valgrind). Workloads (argv[3]):
// - sync: `op((x) => x)` after init(), 3,000 warm-up calls, then N calls in one synchronous loop, then flush() to the
//   sink: each call's inline cost plus the serialization, batching and sending of its events (a burst's events are
//   serialized after it, in the drain's slices, up to the exporter's staging bound, maxQueueBytes / 512 events);
// - inline: the same op, 2,000 warm-up calls and a turn of the event loop (their events serialized and sent), then N
//   calls (below the exporter's staging bound, so none is serialized on the caller's stack), then exit at once: what the caller's stack pays;
// - otel: the OpenTelemetry twin of `inline` (a BasicTracerProvider, BatchSpanProcessor with a discarding exporter, the
//   AsyncLocalStorage context manager, startActiveSpan, input and output as JSON string attributes, as bench/lib/otel.ts);
// - nested: the all-in workload of nested-child.ts (a root awaiting two children, a turn every 16 roots) for N roots,
//   then flush() to the sink at argv[5]: every instruction of recording and exporting them.
import { pathToFileURL } from 'node:url';

const [dist, workload, size, sinkUrl] = process.argv.slice(2);
const n = Number(size);
if (workload === 'otel') {
  const { context } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
  const processor = new BatchSpanProcessor(exporter, { maxQueueSize: 65_536, maxExportBatchSize: 512 });
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('weft-bench');
  const identity = (x) =>
    tracer.startActiveSpan('identity', (span) => {
      try {
        span.setAttribute('input', JSON.stringify({ x }));
        span.setAttribute('output', JSON.stringify(x));
        return x;
      } finally {
        span.end();
      }
    });
  for (let i = 0; i < 2000; i++) identity(i);
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < n; i++) identity(i);
  process.exit(0);
}
const weft = await import(pathToFileURL(`${dist.replace(/\/?$/, '/')}index.js`).href);
weft.setDiagLevel?.('error');
weft.init({ project: 'bench/instructions', baseUrl: sinkUrl, printViewerLink: false });
if (workload === 'inline') {
  const identity = weft.op((x) => x, { name: 'identity' });
  for (let i = 0; i < 2000; i++) identity(i);
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < n; i++) identity(i);
  process.exit(0);
}
if (workload === 'sync') {
  const identity = weft.op((x) => x, { name: 'identity' });
  for (let i = 0; i < 3000; i++) identity(i);
  for (let i = 0; i < n; i++) identity(i);
  await weft.flush();
  process.exit(0);
}
const leaf = async (x) => {
  await Promise.resolve();
  return x * 2;
};
const child = weft.op(leaf, { name: 'child' });
const root = weft.op(async (i) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0), { name: 'root' });
const drive = async (roots) => {
  const pending = [];
  for (let i = 0; i < roots; i++) {
    pending.push(root(i));
    if ((i + 1) % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
};
await drive(500);
await weft.flush();
await drive(n);
await weft.flush();
process.exit(0);
