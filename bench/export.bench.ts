// Export pipeline benchmark: calls/s into the local server and event-loop delay p99 while exporting (vs tracing off), and RSS through an outage at 10k calls/s with and without a spool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { report, runTs } from './lib/child.js';
import { contextLine } from './lib/context-line.js';
import { callInBursts } from './lib/drive.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';
import { addWith, Tally } from './lib/work.js';

/** Outage length in seconds: WEFT_BENCH_OUTAGE_S, else 30 (5 with BENCH_QUICK=1). */
const OUTAGE_S = Number(process.env.WEFT_BENCH_OUTAGE_S ?? (QUICK ? 5 : 30));
const RATE = 10_000; // calls/s during the outage
const N = QUICK ? 40_000 : 200_000;
const CHUNK = 1_000;
const DOWN = 'http://127.0.0.1:9'; // nothing listens there: every connection is refused

type Throughput = { callsPerSec: number; p99Ms: number; stored: number; made: number; dropped: number };
type Outage = { peakRssMb: number; endRssMb: number; heapMb: number; queued: number; dropped: number; spooled: number; queueItems: number };

/** One process per measurement, so each RSS and JIT state is its own. */
const [mode, variant] = process.argv.slice(2);
if (mode === 'throughput') report(variant === 'raw' ? await rawIngest() : await throughput(variant === 'traced'));
else if (mode === 'outage') report(await outage(variant as 'off' | 'memory' | 'spool'));
else await main();

async function throughput(traced: boolean): Promise<Throughput> {
  const server = await startChildServer();
  const project = 'bench/export';
  weft.init({ project, baseUrl: server.url, enabled: traced });
  const tally = new Tally();
  const add = weft.op(addWith(tally), { name: 'add' });
  await callInBursts(() => add(1, 2), 2_000);
  await weft.flush();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const t0 = performance.now();
  // Backpressure like a well-behaved producer: pause while more than 20,000 events wait (the server is the bottleneck).
  for (let done = 0; done < N; done += CHUNK) {
    while (weft.getExportStats().queueItems > 20_000) await sleep(1);
    await callInBursts(() => add(1, 2), CHUNK, 100);
  }
  const flushed = await weft.flush();
  const seconds = (performance.now() - t0) / 1000;
  delay.disable();
  await weft.shutdown();
  const stored = traced ? countCompleteCalls(server.dbPath, project, 'add') : 0;
  await server.close();
  return { callsPerSec: N / seconds, p99Ms: delay.percentile(99) / 1e6, stored, made: tally.n, dropped: flushed.dropped };
}

/** The server's ceiling: the same calls as ready-made upsert_batch bodies (500 events, serialized), 2 requests at a time, no op(). */
async function rawIngest(): Promise<Throughput> {
  const server = await startChildServer();
  const client = new weft.Client({ baseUrl: server.url });
  const project = 'bench/export-raw';
  const now = new Date().toISOString();
  const batch = (from: number) =>
    Array.from({ length: 250 }, (_, k) => [
      { mode: 'start' as const, req: { start: { project_id: project, id: `c${from + k}`, trace_id: `c${from + k}`, op_name: 'add', started_at: now, inputs: { a: 1, b: 2 }, attributes: {} } } },
      { mode: 'end' as const, req: { end: { project_id: project, id: `c${from + k}`, ended_at: now, output: 3, summary: {} } } },
    ]).flat();
  const post = (from: number) => client.transport.postJson('/call/upsert_batch', JSON.stringify({ batch: batch(from) }), z.unknown());
  for (let w = 0; w < 8; w++) await post(-1_000_000 - w * 250); // warm-up, like the traced run's 2,000 calls
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < N) {
      const from = next;
      next += 250;
      await post(from);
    }
  };
  await Promise.all([lane(), lane()]);
  const seconds = (performance.now() - t0) / 1000;
  await client.close();
  const stored = countCompleteCalls(server.dbPath, project, 'add') - 2_000;
  await server.close();
  return { callsPerSec: N / seconds, p99Ms: NaN, stored, made: N, dropped: 0 };
}

async function outage(variant: 'off' | 'memory' | 'spool'): Promise<Outage> {
  const spoolDir = variant === 'spool' ? mkdtempSync(join(tmpdir(), 'weft-bench-spool-')) : undefined;
  weft.init({ project: 'bench/outage', baseUrl: DOWN, enabled: variant !== 'off', spoolDir });
  const before = weft.getExportStats();
  const add = weft.op(addWith(new Tally()), { name: 'add' });
  let peak = 0;
  const t0 = performance.now();
  for (let tick = 0; performance.now() - t0 < OUTAGE_S * 1000; tick++) {
    for (let i = 0; i < RATE / 100; i++) add(i, 2); // 100 calls every 10 ms
    if (tick % 50 === 0) peak = Math.max(peak, process.memoryUsage.rss());
    await sleep(Math.max(0, t0 + (tick + 1) * 10 - performance.now()));
  }
  const end = process.memoryUsage();
  const s = weft.getExportStats();
  const result: Outage = {
    peakRssMb: Math.max(peak, end.rss) / 2 ** 20,
    endRssMb: end.rss / 2 ** 20,
    heapMb: end.heapUsed / 2 ** 20,
    queued: s.queued - before.queued,
    dropped: Object.values(s.dropped).reduce((a, b) => a + b, 0) - Object.values(before.dropped).reduce((a, b) => a + b, 0),
    spooled: s.spooled - before.spooled,
    queueItems: s.queueItems,
  };
  weft.init({ project: 'bench/outage', enabled: false }); // stop without waiting out the retry budget
  if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
  return result;
}

async function main(): Promise<void> {
  const self = new URL(import.meta.url);
  const raw = await runTs<Throughput>(self, ['throughput', 'raw']);
  const off = await runTs<Throughput>(self, ['throughput', 'off']);
  const on = await runTs<Throughput>(self, ['throughput', 'traced']);
  printTable(
    `Export end to end: ${num(N)} sync op() calls into the local server (child process), flush included · ${contextLine()}`,
    ['case', 'calls/s', 'vs server ceiling', 'loop delay p99 (ms)', 'vs tracing off', 'stored / made', 'dropped', 'target (issue 16)'],
    [
      ['server ceiling: ready-made batches, no op()', num(raw.callsPerSec), '1.00x', '-', '-', `${num(raw.stored)}/${num(raw.made)}`, '-', ''],
      ['tracing off (init enabled: false)', num(off.callsPerSec), '-', num(off.p99Ms, 2), '1.00x', '-', '-', ''],
      [
        'traced and exported',
        num(on.callsPerSec),
        ratio(on.callsPerSec, raw.callsPerSec),
        num(on.p99Ms, 2),
        ratio(on.p99Ms, off.p99Ms),
        `${num(on.stored)}/${num(on.made)}`,
        num(on.dropped),
        `${verdict(on.callsPerSec >= 0.9 * raw.callsPerSec, '>= 0.90x ceiling')}, ${verdict(on.p99Ms < 5, 'p99 < 5 ms')}`,
      ],
    ],
  );
  const rows: string[][] = [];
  let base = 0;
  for (const variant of ['off', 'memory', 'spool'] as const) {
    const o = await runTs<Outage>(self, ['outage', variant]);
    if (variant === 'off') base = o.peakRssMb;
    const label = { off: 'tracing off (baseline)', memory: 'memory queue only (defaults)', spool: 'with spoolDir' }[variant];
    rows.push([label, num(o.peakRssMb, 1), ratio(o.peakRssMb, base), num(o.heapMb, 1), num(o.queued), num(o.dropped), num(o.spooled), num(o.queueItems)]);
  }
  printTable(
    `Outage: server unreachable for ${OUTAGE_S} s at ${num(RATE)} calls/s (WEFT_BENCH_OUTAGE_S to change) · ${contextLine()}`,
    ['case', 'peak RSS (MB)', 'vs baseline', 'heap (MB)', 'events', 'dropped', 'spooled', 'in memory'],
    rows,
  );
  if (on.stored !== on.made) {
    console.log('CHECK FAILED: calls did not all reach the server');
    process.exitCode = 1;
  }
}
