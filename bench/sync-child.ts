// Child of the guard (and of sync-bisect): p50 ns of one traced sync call, op((x) => x) after init(), exporting to a sink; then an OTel span in the same process.
// Loads the SDK build in WEFT_BENCH_DIST (the ESM bundle, as an app imports it); weft is measured before OpenTelemetry's
// context manager is registered, so the op() path is the one an app without OpenTelemetry runs.
import { pathToFileURL } from 'node:url';
import { report } from './lib/child.js';
import { nsPerCall } from './lib/measure.js';
import { setupOtel, otelSync } from './lib/otel.js';
import { startSink } from './lib/sink.js';

/** What one round reports: p50 ns per call of the traced sync op and of the OTel span twin, and the calls the sink got. */
export interface SyncResult {
  weftNs: number;
  otelNs: number;
  made: number;
  received: number;
}

const dist = process.env.WEFT_BENCH_DIST;
const weft = (await import(dist ? pathToFileURL(`${dist.replace(/\/?$/, '/')}index.js`).href : '../packages/weft-trace/src/index.js')) as typeof import('../packages/weft-trace/src/index.js');
const sink = await startSink();
weft.setDiagLevel?.('error');
weft.init({ project: 'bench/sync', baseUrl: sink.url });
let made = 0;
const identity = weft.op((x: number) => {
  made++;
  return x;
}, { name: 'identity' });
const weftNs = await nsPerCall(() => identity(1), () => weft.flush());
await weft.shutdown();
const received = await sink.received();

const otel = setupOtel();
const identityOtel = otelSync(otel.tracer, 'identity', ['x'], (x: number) => x);
const otelNs = await nsPerCall(() => identityOtel(1), otel.flush);
await otel.shutdown();
report({ weftNs, otelNs, made, received } satisfies SyncResult);
