// Server side: write latency p50/p99 of upsert batches at 8, 32 and 128 concurrent writers, and while a 1M-call stream_query is read.
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { callsDatabase, QUERY_PROJECT } from './lib/calls-db.js';
import { contextLine } from './lib/context-line.js';
import { benchTempDir, startChildServer } from './lib/server.js';
import { batchBody, quantile, runWriters, type Writers } from './lib/writers.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';

/** Calls per upsert batch: 250 starts and 250 ends, the SDK's default batch of 500 events. */
const CALLS_PER_BATCH = 250;
/** Batches sent at each concurrency level, split evenly over the writers. */
const BATCHES = QUICK ? 256 : 512;
const LEVELS = [8, 32, 128];
/** Writers running while the stream is read. */
const STREAM_WRITERS = 8;
/** Calls in the streamed project (generated once, cached; copied so writes do not touch the cache). */
const STREAM_ROWS = Number(process.env.BENCH_FAIRNESS_ROWS) || (QUICK ? 100_000 : 1_000_000);
/** Upper bound of batches sent while the stream runs (the loop also stops when the stream ends). */
const STREAM_MAX_BATCHES = QUICK ? 300 : 1_200;

const JSON_TYPE = { 'content-type': 'application/json' };

/** Up to `n` bodies of `project`, made as they are asked for. */
function counted(n: number, project: string): () => string | undefined {
  let left = n;
  return () => (left-- > 0 ? batchBody(project, CALLS_PER_BATCH) : undefined);
}

const rows: string[][] = [];
/** The first failures seen, for the summary line. */
const firstFailures = new Set<string>();
const row = (label: string, w: Writers, base?: Writers): string[] => {
  for (const f of w.failures.slice(0, 3)) firstFailures.add(f);
  const p50 = quantile(w.latencies, 0.5);
  const p99 = quantile(w.latencies, 0.99);
  return [label, num(w.latencies.length), num(w.failures.length), num(p50, 1), num(p99, 1), num(w.latencies.at(-1) ?? NaN, 1), ratio(p99, p50),
    base ? ratio(p99, quantile(base.latencies, 0.99)) : '', num((w.latencies.length * CALLS_PER_BATCH) / w.seconds)];
};

// Part 1: concurrent writers on a fresh file database.
/** The writers of part 1 at STREAM_WRITERS, the baseline of part 2. */
let baseline: Writers | undefined;
{
  const server = await startChildServer();
  await runWriters(server.url, 4, counted(8, 'bench/fair-warm'));
  for (const writers of LEVELS) {
    const bodies = Array.from({ length: BATCHES }, () => batchBody(`bench/fair-${writers}`, CALLS_PER_BATCH));
    const w = await runWriters(server.url, writers, () => bodies.pop());
    rows.push(row(`${writers} writers`, w));
    if (writers === STREAM_WRITERS) baseline = w;
  }
  await server.close();
}

// Part 2: the same writers while one client reads a stream_query of STREAM_ROWS calls as fast as it can.
const db = callsDatabase(STREAM_ROWS);
if (db.generatedSeconds !== undefined) console.log(`generated ${num(STREAM_ROWS)} calls in ${num(db.generatedSeconds, 1)} s: ${db.path}`);
const dir = benchTempDir();
const copy = join(dir, 'calls.db');
copyFileSync(db.path, copy);
const server = await startChildServer(copy);
let streamed = 0;
let streaming = true;
let stream: Promise<number> = Promise.resolve(NaN);
/** Reads the whole stream as fast as it can, counting records; started once the writers are connected. */
function startStream(): void {
  const t0 = performance.now();
  stream = (async () => {
    try {
      const res = await request(`${server.url}/calls/stream_query`, {
        method: 'POST', body: JSON.stringify({ project_id: QUERY_PROJECT }), headers: { ...JSON_TYPE, accept: 'application/jsonl' },
      });
      for await (const chunk of res.body) for (const byte of chunk as Buffer) if (byte === 10) streamed++;
    } catch (err) {
      console.log(`stream failed after ${num(streamed)} records: ${String(err)}`);
    }
    return (performance.now() - t0) / 1000;
  })().finally(() => (streaming = false));
}
const during = await runWriters(server.url, STREAM_WRITERS, counted(STREAM_MAX_BATCHES, 'bench/fair-stream'), () => !streaming, startStream);
const streamSeconds = await stream;
await server.close();
rmSync(dir, { recursive: true, force: true });
rows.push(row(`${STREAM_WRITERS} writers during a ${num(STREAM_ROWS)}-call stream_query`, during, baseline));

printTable(
  `Server fairness: upsert_batch latency (${CALLS_PER_BATCH} calls per batch, ${num(BATCHES)} batches per level, one connection per writer, server in a child process, file database) · ${contextLine()}`,
  ['writers', 'answered', 'failed', 'p50 ms', 'p99 ms', 'max ms', 'p99/p50', 'p99 / idle p99', 'calls/s'],
  rows,
);
const at128 = rows[LEVELS.indexOf(128)]!;
const p99OverP50 = Number.parseFloat(at128[6] ?? '');
console.log(`stream: ${num(streamed)} records in ${num(streamSeconds, 1)} s (${num(streamed / streamSeconds)} records/s) · p99/p50 at 128 writers: ${verdict(p99OverP50 <= 5, '<= 5x')}`);
const failed = rows.filter((r) => r[2] !== '0');
if (failed.length > 0) console.log(`failed requests: ${failed.map((r) => `${r[0]}: ${r[2]}`).join('; ')} (${[...firstFailures].slice(0, 3).join(', ')})`);
if (streamed !== STREAM_ROWS) {
  console.log(`CHECK FAILED: the stream answered ${streamed} records, expected ${STREAM_ROWS}`);
  process.exitCode = 1;
}
