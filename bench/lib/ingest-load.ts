// Server ingest under load: calls/s and p99 latency of N concurrent upsert_batch writers for a fixed time, against the server of a given build.
import { readFileSync } from 'node:fs';
import { countCompleteCalls } from './stored.js';
import { startChildServer } from './server.js';
import { batchBody, quantile, runWriters } from './writers.js';

/** Calls per upsert batch: 250 starts and 250 ends, the SDK's default batch of 500 events. */
export const CALLS_PER_BATCH = 250;
const PROJECT = 'bench/ingest-load';
/** Calls/s the pre-made bodies are sized for; past it, bodies are made while timing (the client then competes for CPU). */
const POOL_CALLS_PER_SEC = 40_000;

/** Bodies made once per process, by calls per batch, and sent again to every fresh database (ids are unique within a database). */
const pools = new Map<number, string[]>();
const warmBodies = Array.from({ length: 8 }, () => batchBody('bench/ingest-warm', CALLS_PER_BATCH));

/** CPU time (user + system) a process has used so far, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  // the fields after the command name, which is in parentheses: utime and stime are the 12th and 13th
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The pool of bodies of `perBatch` calls, holding at least `n`. */
function pool(perBatch: number, n: number): string[] {
  let bodies = pools.get(perBatch);
  if (!bodies) pools.set(perBatch, (bodies = []));
  while (bodies.length < n) bodies.push(batchBody(PROJECT, perBatch));
  return bodies;
}

/** Options of {@link measureIngest}. */
export interface IngestLoad {
  /** Concurrent writers, each with its own connection, each sending its next batch when the last is answered. */
  writers: number;
  /** How long the writers send, s (requests in flight then are answered and counted). */
  seconds: number;
  /** Calls (start + end items) per batch. @defaultValue 250 ({@link CALLS_PER_BATCH}) */
  callsPerBatch?: number;
}

/** What {@link measureIngest} measured. */
export interface IngestFigures {
  /** Complete calls (start + end items) answered per second. */
  callsPerSec: number;
  /** Median and 99th percentile latency of one upsert_batch request, ms. */
  p50Ms: number;
  p99Ms: number;
  /**
   * The server process's CPU time per call, µs: steadier than calls/s on a shared machine, where another process
   * taking a core slows the server's wall clock but not its CPU per call.
   */
  cpuUsPerCall: number;
}

/**
 * Starts the server of the tsup build in `distDir` (a `buildForBench` dir) in a child process on a fresh SQLite file,
 * warms it, then runs `writers` writers for `seconds` and checks every answered call was stored.
 * @throws when a request failed or an answered call is missing from the database.
 */
export async function measureIngest(distDir: string, { writers, seconds, callsPerBatch = CALLS_PER_BATCH }: IngestLoad): Promise<IngestFigures> {
  const bodies = pool(callsPerBatch, Math.ceil((seconds * POOL_CALLS_PER_SEC) / callsPerBatch));
  const server = await startChildServer(undefined, distDir);
  try {
    let w = 0;
    await runWriters(server.url, 2, () => warmBodies[w++]);
    let next = 0;
    let until = Infinity;
    let cpu0 = 0;
    const start = (): void => {
      cpu0 = cpuMsOf(server.pid);
      until = performance.now() + seconds * 1000;
    };
    const run = await runWriters(server.url, writers, () => bodies[next++] ?? batchBody(PROJECT, callsPerBatch), () => performance.now() >= until, start);
    const cpuMs = cpuMsOf(server.pid) - cpu0;
    const calls = run.latencies.length * callsPerBatch;
    const stored = countCompleteCalls(server.dbPath, PROJECT);
    if (run.failures.length > 0 || stored !== calls) {
      throw new Error(`ingest load: ${run.failures.length} failed requests (${run.failures.slice(0, 3).join(', ')}), ${stored}/${calls} answered calls stored`);
    }
    return { callsPerSec: calls / run.seconds, p50Ms: quantile(run.latencies, 0.5), p99Ms: quantile(run.latencies, 0.99), cpuUsPerCall: (cpuMs * 1000) / calls };
  } finally {
    await server.close();
  }
}
