// @weft-test: isolated (it reads the process-wide export counters, getExportStats)
// Every call of a 5,000-call run arrives exactly once through a fault proxy: outage, 500 and 429 storms, resets, lost answers, 2 s latency.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { flush, getExportStats, init, op, type InitOptions } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startFaultProxy, type FaultProxy } from 'weft-test-kit/fault-proxy.js';
import { expectEveryIsoUtc, expectEveryUuidv7 } from 'weft-test-kit/shapes.js';

const server = useTestServer();
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
});
afterEach(() => proxy.clear());
afterAll(() => proxy.close());

const CALLS = 5_000;
/** Small retry delays so faults pass in test time; a budget long enough to outlast every fault. */
const FAST_RETRIES: InitOptions = { retryInitialDelayMs: 20, retryMaxDelayMs: 300, retryBudgetMs: 20_000, maxRetries: 1_000 };

/** Traces CALLS calls (half roots, half their children) through the proxy, flushes, and checks the server has each once. */
async function runAndCount(label: string, options: InitOptions = {}): Promise<void> {
  const project = uniqueProject(label);
  init({ project, baseUrl: proxy.url, printViewerLink: false, flushIntervalMs: 50, ...FAST_RETRIES, ...options });
  const child = op(function child(i: number) { return i * 2; });
  const parent = op(function parent(i: number) { return child(i); });
  for (let i = 0; i < CALLS / 2; i++) parent(i);
  const report = await flush({ timeoutMs: 25_000 });
  expect(report).toEqual({ sent: 2 * CALLS, dropped: 0, spooled: 0, pending: 0 });
  expect(await server().store.countRows(project)).toBe(CALLS);
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(CALLS);
  expect(new Set(records.map((r) => r.id)).size).toBe(CALLS);
  expectEveryUuidv7(records.map((r) => r.id));
  expectEveryIsoUtc(records.map((r) => r.ended_at));
}

it('server down for 5 s (connections refused): every call arrives once', async () => {
  proxy.inject({ kind: 'refuse' }, { forMs: 5_000 });
  const before = getExportStats().retried;
  await runAndCount('down');
  expect(getExportStats().retried).toBeGreaterThan(before);
});

it('a storm of 500s: every call arrives once', async () => {
  proxy.inject({ kind: 'status', status: 500 }, { forMs: 1_500 });
  await runAndCount('storm500');
  expect(proxy.counts.faulted).toBeGreaterThan(0);
});

it('a storm of 429s with Retry-After: 1 is waited out, not hammered', async () => {
  const faultedBefore = proxy.counts.faulted;
  proxy.inject({ kind: 'status', status: 429, retryAfter: '1' }, { forMs: 2_000 });
  await runAndCount('storm429');
  // 2 requests in flight, each waiting 1 s between tries: about 2 x 3 tries in 2 s; a 20 ms backoff would make dozens.
  expect(proxy.counts.faulted - faultedBefore).toBeLessThanOrEqual(10);
});

it('connections reset mid-request (every other request): every call arrives once', async () => {
  proxy.inject({ kind: 'reset' }, { ratio: 0.5 });
  await runAndCount('resets');
});

it('answers lost after the server stored the body: the retried events are the same calls, not new ones', async () => {
  const faultedBefore = proxy.counts.faulted;
  proxy.inject({ kind: 'drop-after-upstream' }, { ratio: 0.5 });
  await runAndCount('lost-answers'); // each call once on the server...
  // ...although every faulted request reached the server and was stored, and its events were then sent again
  expect(proxy.counts.faulted - faultedBefore).toBeGreaterThan(0);
});

it('2 s latency on every request: every call arrives once', async () => {
  proxy.inject({ kind: 'delay', ms: 2_000 });
  await runAndCount('latency', { maxBatchItems: 2_500, flushIntervalMs: 60_000 });
});
