// An op whose fetch() request, recorded by OTel's undici instrumentation, shows as its child in weft's trace tree.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { op } from '../packages/weft-trace/src/index.js';
import { WeftSpanProcessor } from '../packages/weft-trace/src/otel/index.js';
import { runExample } from './run-example.js';

// OTel as an app sets it up: a context manager, a provider whose spans go to weft, an HTTP client instrumentation.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
trace.setGlobalTracerProvider(provider);
const undici = new UndiciInstrumentation();
undici.setTracerProvider(provider);
undici.enable();

// A loopback "weather API".
const api = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ city: new URL(req.url ?? '/', 'http://x').searchParams.get('city'), celsius: 21 }));
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const weather = op(async function weather(city: string) {
  const res = await fetch(`${base}/weather?city=${encodeURIComponent(city)}`);
  return (await res.json()) as { city: string; celsius: number };
});

const plan = op(async function plan(cities: string[]) {
  const reports = await Promise.all(cities.map((c) => weather(c)));
  return reports.map((r) => `${r.city}: ${r.celsius} C`).join(', ');
});

await runExample('otel-http', async () => {
  console.log(await plan(['Lisbon', 'Oslo']));
  await provider.forceFlush();
});
undici.disable();
await provider.shutdown();
api.close();
