// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// Limits with the server down: 50k calls (10x the item cap in events) keep the memory queue within its caps and every drop is counted; with a spool nothing is dropped; oversize events are truncated.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { flush, getExportStats, init, op, shutdown, type ExportStats } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';

const server = useTestServer();
const DOWN = 'http://127.0.0.1:9'; // nothing listens on port 9: connections are refused
/**
 * Calls of the outage tests: 100,000 events, 10x `maxQueueItems`. The loop never yields: the events wait unserialized
 * up to the staging bound (16,384), which then drains into the full queue, over and over (six times here), each
 * the same path (dropped as queue_full, or spilled to the spool); 200,000 calls only repeated it more (24 times).
 */
const CALLS = 50_000;
const CAPS = { maxQueueItems: 10_000, maxQueueBytes: 4 * 1024 * 1024 };
const SHORT_RETRIES = { retryBudgetMs: 100, retryInitialDelayMs: 10, retryMaxDelayMs: 50 };

const totalDropped = (s: ExportStats) => Object.values(s.dropped).reduce((a, b) => a + b, 0);

/** Runs CALLS traced calls; returns the largest memory queue seen (sampled every 1,000 calls). */
function traceMany(): { maxItems: number; maxBytes: number } {
  const f = op(function f(i: number) { return { i, text: 'some output text' }; });
  let maxItems = 0;
  let maxBytes = 0;
  for (let i = 0; i < CALLS; i++) {
    f(i);
    if (i % 1_000 === 0) {
      const s = getExportStats();
      maxItems = Math.max(maxItems, s.queueItems);
      maxBytes = Math.max(maxBytes, s.queueBytes);
    }
  }
  return { maxItems, maxBytes };
}

it('with the server down and the spool off, 50k calls stay within the memory caps and every dropped event is counted', async () => {
  const before = getExportStats();
  init({ project: uniqueProject('cap'), baseUrl: DOWN, spoolDir: false, ...CAPS, ...SHORT_RETRIES });
  const seen = traceMany();
  expect(seen.maxItems).toBeLessThanOrEqual(CAPS.maxQueueItems);
  expect(seen.maxBytes).toBeLessThanOrEqual(CAPS.maxQueueBytes);
  const report = await shutdown({ timeoutMs: 10_000 });
  const after = getExportStats();
  expect(after.queued - before.queued).toBe(2 * CALLS);
  expect(report).toEqual({ sent: 0, dropped: 2 * CALLS, spooled: 0, pending: 0 });
  expect(totalDropped(after) - totalDropped(before)).toBe(2 * CALLS);
  expect(after.dropped.queue_full - before.dropped.queue_full).toBeGreaterThan(CALLS);
  expect(after.dropped.unreachable - before.dropped.unreachable).toBeGreaterThan(0);
});

it('with a spool, the same outage drops nothing: every event is written to the spool', async () => {
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-spool-'));
  try {
    const before = getExportStats();
    init({ project: uniqueProject('cap-spool'), baseUrl: DOWN, spoolDir, spoolMaxBytes: 256 * 1024 * 1024, ...CAPS, ...SHORT_RETRIES });
    const seen = traceMany();
    expect(seen.maxItems).toBeLessThanOrEqual(CAPS.maxQueueItems);
    const report = await shutdown({ timeoutMs: 10_000 });
    const after = getExportStats();
    expect(totalDropped(after) - totalDropped(before)).toBe(0);
    expect(report).toEqual({ sent: 0, dropped: 0, spooled: 2 * CALLS, pending: 0 });
    expect(after.spooled - before.spooled).toBe(2 * CALLS);
    const lines = readdirSync(spoolDir).reduce((n, f) => n + readFileSync(path.join(spoolDir, f), 'utf8').split('\n').length - 1, 0);
    expect(lines).toBe(2 * CALLS);
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
});

it('the spool stays within spoolMaxBytes; what does not fit is counted as spool_full', async () => {
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-spool-'));
  try {
    const before = getExportStats();
    init({ project: uniqueProject('spool-cap'), baseUrl: DOWN, spoolDir, spoolMaxBytes: 64 * 1024, maxQueueItems: 1_000, ...SHORT_RETRIES });
    const f = op(function f(i: number) { return i; });
    for (let i = 0; i < 5_000; i++) f(i);
    const report = await shutdown({ timeoutMs: 10_000 });
    const after = getExportStats();
    const onDisk = readdirSync(spoolDir).reduce((n, name) => n + readFileSync(path.join(spoolDir, name)).length, 0);
    expect(onDisk).toBeLessThanOrEqual(64 * 1024);
    expect(after.dropped.spool_full - before.dropped.spool_full).toBeGreaterThan(0);
    expect(report.dropped).toBe(totalDropped(after) - totalDropped(before));
    expect(report.spooled + report.dropped).toBe(10_000);
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
});

it('an event over maxBatchBytes is sent with a marker instead of its inputs, and does not hold up the others', async () => {
  const project = uniqueProject('oversize');
  init({ project, baseUrl: server().url, maxBatchBytes: 64 * 1024 });
  const f = op(function f(parts: string[]) { return parts.length; });
  f(['small before']);
  f(Array.from({ length: 20 }, () => 'x'.repeat(9_000))); // ~180 KB of inputs (op() itself keeps up to 256 KiB)
  f(['small after']);
  expect(await flush()).toMatchObject({ sent: 6, dropped: 0, pending: 0 });
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(3);
  const big = records.find((r) => JSON.stringify(r.inputs).includes('_weft_truncated'));
  const marker = (big?.inputs as { _weft_truncated: { original_bytes: number; limit_bytes: number } })._weft_truncated;
  expect(marker.original_bytes).toBeGreaterThan(180_000);
  expect(marker.limit_bytes).toBeLessThan(64 * 1024);
  expect(big?.output).toBe(20);
  expect(records.filter((r) => r.inputs && JSON.stringify(r.inputs).includes('small'))).toHaveLength(2);
});
