// @weft-test: isolated (a process's life: its exit, its first warnings, its spool and its memory)
// A burst that outruns a healthy server, with init()'s defaults: serialized after the loop, not in it, and every call reaches the server from memory, nothing goes to the disk spool (issue 47).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { getExportStats, init, op, shutdown } from '../../src/index.js';
import { useFileTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';

// on a database file: the 60,000 calls are read back in one pass, not a page of 200 at a time (useFileTestServer)
const server = useFileTestServer();
/** Calls in one synchronous loop: 120,000 events, past the 100,000 the memory held before issue 47 (then the rest went to the spool). */
const CALLS = 60_000;

it('a burst of 60,000 calls in one loop, with the defaults and a spool directory, is sent from memory: none spooled, none dropped, all stored', async () => {
  const spoolDir = mkdtempSync(path.join(tmpdir(), 'weft-burst-'));
  try {
    const project = uniqueProject('burst');
    const before = getExportStats();
    init({ project, baseUrl: server().url, spoolDir });
    const f = op(function f(i: number) {
      return i;
    });
    let serializedInLoop = 0;
    for (let i = 0; i < CALLS; i++) {
      f(i); // no turn of the event loop until the last call
      if (i % 1_000 === 0) serializedInLoop = Math.max(serializedInLoop, getExportStats().queueBytes - before.queueBytes);
    }
    // the burst's events wait unserialized (below the exporter's staging bound, maxQueueBytes / 512 events): the caller pays no JSON in its loop
    expect(serializedInLoop).toBe(0);
    const report = await shutdown({ timeoutMs: 60_000 });
    const after = getExportStats();
    expect(report).toMatchObject({ dropped: 0, spooled: 0, pending: 0 });
    expect(after.spooled - before.spooled).toBe(0);
    expect(readdirSync(spoolDir).filter((name) => !name.startsWith('answered-'))).toEqual([]); // no segment was written (only the server's answered-marker)
    const calls = await readCalls(server().url, project, { columns: ['id', 'ended_at'] });
    expect(calls).toHaveLength(CALLS);
    expect(calls.every((c) => c.ended_at)).toBe(true);
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
}, 120_000);

/** Calls of the bound's test: 24,000 events, half again the bound (16,384 events, the first forced drain at 8,193 calls). */
const BOUND_CALLS = 12_000;

it("the events a loop that never yields holds unserialized are bounded by the memory budget: maxQueueBytes / 512", async () => {
  const project = uniqueProject('burst-bound');
  const before = getExportStats();
  init({ project, baseUrl: server().url, maxQueueBytes: 8 * 1024 * 1024 }); // a bound of 16,384 events: 8,192 calls
  const f = op(function f(i: number) {
    return i;
  });
  let serializedInLoop = 0;
  for (let i = 0; i < BOUND_CALLS; i++) {
    f(i);
    if (i % 500 === 0) serializedInLoop = Math.max(serializedInLoop, getExportStats().queueBytes - before.queueBytes);
  }
  expect(serializedInLoop).toBeGreaterThan(0); // past the bound, the caller's loop serialized the oldest
  const report = await shutdown({ timeoutMs: 60_000 });
  expect(report).toMatchObject({ dropped: 0, pending: 0 });
  expect(await readCalls(server().url, project, { columns: ['id'] })).toHaveLength(BOUND_CALLS);
}, 120_000);
