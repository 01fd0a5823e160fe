// @weft-test: isolated (it reads the process-wide export counters, getExportStats)
// Diagnostics: a non-retried 4xx drops the batch with one warning naming the status and the server's detail; no diagnostic ever holds the API key.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { flush, getExportStats, init, op, setDiagLevel } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { startFaultProxy, type FaultProxy } from 'weft-test-kit/fault-proxy.js';

const server = useTestServer();
const API_KEY = 'sk-weft-test-5ecret-k3y';
let proxy: FaultProxy;
let lines: string[] = [];
beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
});
afterAll(() => proxy.close());
afterEach(() => {
  proxy.clear();
  vi.restoreAllMocks();
  setDiagLevel('warn');
});

/** Collects what weft writes to stderr (diag goes through console.error), at debug level. */
function captureDiagnostics(): void {
  lines = [];
  setDiagLevel('debug');
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
}

const traceSome = (n: number) => {
  const f = op(function f(i: number) { return i; });
  for (let i = 0; i < n; i++) f(i);
};

it('drops a batch refused with 403, not retried, with one warning naming the status and detail', async () => {
  captureDiagnostics();
  const before = getExportStats();
  const requests = proxy.counts.requests;
  proxy.inject({ kind: 'status', status: 403 });
  init({ project: uniqueProject('forbidden'), baseUrl: proxy.url, printViewerLink: false, apiKey: API_KEY, retryInitialDelayMs: 1 });
  traceSome(10);
  expect(await flush()).toEqual({ sent: 0, dropped: 20, spooled: 0, pending: 0 });
  expect(proxy.counts.requests - requests).toBe(1); // not retried
  expect(getExportStats().dropped.rejected - before.dropped.rejected).toBe(20);
  const refusals = lines.filter((l) => l.includes('HTTP 403'));
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toContain('injected 403'); // the server's detail
  expect(lines.join('\n')).not.toContain(API_KEY);
});

it('a run failing every way (500s past the budget, resets, 401) never logs the API key and never throws', async () => {
  captureDiagnostics();
  const before = getExportStats();
  init({ project: uniqueProject('no-key'), baseUrl: proxy.url, printViewerLink: false, apiKey: API_KEY, retryInitialDelayMs: 5, retryMaxDelayMs: 20, retryBudgetMs: 200, spoolDir: false });
  for (const fault of [{ kind: 'status', status: 500 }, { kind: 'reset' }, { kind: 'status', status: 401 }] as const) {
    proxy.inject(fault);
    traceSome(5);
    expect((await flush()).pending).toBe(0);
  }
  const after = getExportStats();
  expect(after.retried).toBeGreaterThan(before.retried);
  expect(after.dropped.unreachable - before.dropped.unreachable).toBe(20);
  expect(after.dropped.rejected - before.dropped.rejected).toBe(10);
  expect(after.inFlightRequests).toBe(0);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.join('\n')).not.toContain(API_KEY);
  expect(lines.join('\n')).not.toContain(Buffer.from(`api:${API_KEY}`).toString('base64'));
});
