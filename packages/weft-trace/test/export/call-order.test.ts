// A call's end never reaches the server before its start: through the fault proxy, into a strictOrder server that refuses such ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { flush, init, op, type InitOptions } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startFaultProxy, type Fault, type FaultProxy } from 'weft-test-kit/fault-proxy.js';
import { expectEveryIsoUtc } from 'weft-test-kit/shapes.js';
import { storeParts } from 'weft-server/src/server/server-store.js';

const server = useTestServer({ strictOrder: true });
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
});
afterEach(() => proxy.clear());
afterAll(() => proxy.close());

/** Small retry delays so faults pass in test time; a budget long enough to outlast every fault. */
const FAST_RETRIES: InitOptions = { retryInitialDelayMs: 20, retryMaxDelayMs: 300, retryBudgetMs: 20_000, maxRetries: 1_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Workload {
  calls: number;
  /** Calls running at once. */
  wave: number;
  /** Longest time a call runs, in ms (its start and end then fall in different batches). */
  maxMs: number;
}

/**
 * Runs `calls` async calls, `wave` at a time, each lasting 0..maxMs ms, so starts and ends land in
 * different batches with two requests in flight; flushes and checks that the server refused no end
 * and holds every call once, ended.
 */
async function runInOrder(label: string, work: Workload, options: InitOptions = {}): Promise<void> {
  const project = uniqueProject(label);
  const refusedBefore = storeParts(server().store).calls.orderRefusals;
  init({ project, baseUrl: proxy.url, printViewerLink: false, flushIntervalMs: 5, maxBatchItems: 50, maxConcurrentRequests: 2, ...FAST_RETRIES, ...options });
  const task = op(async function task(i: number) {
    await sleep((i * 7919) % (work.maxMs + 1));
    return i;
  });
  for (let i = 0; i < work.calls; i += work.wave) {
    await Promise.all(Array.from({ length: Math.min(work.wave, work.calls - i) }, (_, j) => task(i + j)));
  }
  let report = await flush({ timeoutMs: 25_000 });
  for (let tries = 0; report.spooled > 0 && tries < 100; tries++) { // the spool is replayed once the server answers again
    await sleep(100);
    report = await flush({ timeoutMs: 25_000 });
  }
  expect(report).toMatchObject({ spooled: 0 });
  expect(storeParts(server().store).calls.orderRefusals - refusedBefore).toBe(0);
  expect(report).toMatchObject({ dropped: 0, pending: 0 });
  expect(await server().store.countRows(project)).toBe(work.calls);
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(work.calls);
  expect(new Set(records.map((r) => r.id)).size).toBe(work.calls);
  expectEveryIsoUtc(records.map((r) => r.ended_at));
}

const WORK: Workload = { calls: 2_000, wave: 100, maxMs: 20 };

it('the strictOrder server refuses an end whose start it has not stored, and takes it once the start is stored', async () => {
  const project = uniqueProject('strict');
  const end = { project_id: project, id: '01890000-0000-7000-8000-000000000001', ended_at: new Date().toISOString(), summary: {} };
  const start = { project_id: project, id: end.id, op_name: 'f', started_at: new Date().toISOString(), attributes: {}, inputs: {} };
  const post = (batch: unknown[]) =>
    fetch(`${server().url}/call/upsert_batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
  const before = storeParts(server().store).calls.orderRefusals;
  const refused = await post([{ mode: 'end', req: { end } }]);
  expect(refused.status).toBe(422);
  expect(((await refused.json()) as { detail: { loc: string[]; type: string }[] }).detail).toEqual([
    expect.objectContaining({ loc: ['body', 'batch', '0', 'req', 'end', 'id'], type: 'value_error.end_before_start' }),
  ]);
  expect(storeParts(server().store).calls.orderRefusals - before).toBe(1);
  expect((await post([{ mode: 'start', req: { start } }, { mode: 'end', req: { end } }])).status).toBe(200);
  expect((await post([{ mode: 'end', req: { end } }])).status).toBe(200);
});

it('no faults: every end after its start', async () => {
  await runInOrder('calm', WORK);
});

it('503 for 3 s: every end after its start', async () => {
  proxy.inject({ kind: 'status', status: 503 }, { forMs: 3_000 });
  await runInOrder('storm503', WORK);
  expect(proxy.counts.faulted).toBeGreaterThan(0);
});

it('429 with Retry-After for 2.5 s: every end after its start', async () => {
  proxy.inject({ kind: 'status', status: 429, retryAfter: '1' }, { forMs: 2_500 });
  await runInOrder('storm429', WORK);
});

it('server down for 3 s: every end after its start', async () => {
  proxy.inject({ kind: 'refuse' }, { forMs: 3_000 });
  await runInOrder('down', WORK);
});

it('502 for 2 s: every end after its start', async () => {
  proxy.inject({ kind: 'status', status: 502 }, { forMs: 2_000 });
  await runInOrder('storm502', WORK);
});

it('half the requests answered 503 (one of two in flight fails, the other passes): every end after its start', async () => {
  proxy.inject({ kind: 'status', status: 503 }, { ratio: 0.5, forMs: 3_000 });
  await runInOrder('half503', WORK);
});

it('down past the retry budget with a spool: the spool replays starts before ends, memory and spool never cross', async () => {
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-order-'));
  try {
    proxy.inject({ kind: 'refuse' }, { forMs: 1_500 });
    await runInOrder('spool', { calls: 1_000, wave: 50, maxMs: 20 }, { spoolDir, retryBudgetMs: 200, retryMaxDelayMs: 100 });
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
});

const FAULTS: fc.Arbitrary<Fault> = fc.oneof(
  fc.constantFrom(500, 502, 503, 504).map((status): Fault => ({ kind: 'status', status })),
  fc.constant<Fault>({ kind: 'status', status: 429, retryAfter: '0.2' }),
  fc.constant<Fault>({ kind: 'reset' }),
  fc.constant<Fault>({ kind: 'drop-after-upstream' }),
  fc.integer({ min: 20, max: 200 }).map((ms): Fault => ({ kind: 'delay', ms })),
);

it('property: under any fault, share of faulted requests, batch size, concurrency and call length, no end before its start', async () => {
  await fc.assert(
    fc.asyncProperty(
      FAULTS,
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.integer({ min: 200, max: 1_000 }),
      fc.record({ calls: fc.integer({ min: 50, max: 400 }), wave: fc.integer({ min: 1, max: 60 }), maxMs: fc.integer({ min: 0, max: 15 }) }),
      fc.record({ maxBatchItems: fc.integer({ min: 2, max: 60 }), maxConcurrentRequests: fc.integer({ min: 1, max: 4 }), flushIntervalMs: fc.integer({ min: 1, max: 20 }) }),
      async (fault, ratio, forMs, work, options) => {
        proxy.inject(fault, { ratio, forMs });
        try {
          await runInOrder('prop', work, options);
        } finally {
          proxy.clear();
        }
      },
    ),
    { numRuns: 8 },
  );
});
