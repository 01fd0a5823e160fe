// Concurrent upsert_batch writers, one connection each, timing every request: the load of the server ingest benches.
import { Agent, request } from 'undici';
import { callBatchItems } from './call-batches.js';
import { num } from './table.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** One upsert_batch body of `n` complete calls in `project`, shaped like what op() sends. */
export const batchBody = (project: string, n: number): string => JSON.stringify({ batch: callBatchItems(project, n) });

/** What a run of writers saw. */
export interface Writers {
  /** Sorted latencies of the requests answered 200, ms. */
  latencies: number[];
  /** Requests not answered 200: status or error code, and when. */
  failures: string[];
  /** From the first timed request to the last answer. */
  seconds: number;
}

/** The value at quantile `q` of sorted latencies. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/**
 * Runs `writers` loops, each sending upsert batches one after another (one connection each) until `nextBody()`
 * has no more or `stop()` says so; `onReady` runs once every connection is open, before the timed part.
 */
export async function runWriters(url: string, writers: number, nextBody: () => string | undefined, stop: () => boolean = () => false, onReady = (): void => {}): Promise<Writers> {
  const agent = new Agent({ connections: writers, pipelining: 1 });
  const latencies: number[] = [];
  const failures: string[] = [];
  // Opens every writer's connection first (one small batch each, not timed): a load generator opening 128
  // connections at once waits seconds for some of them, which is not the server's fairness.
  const warm = batchBody('bench/fair-warm', 1);
  await Promise.all(Array.from({ length: writers }, async () => (await request(`${url}/call/upsert_batch`, { method: 'POST', body: warm, headers: JSON_TYPE, dispatcher: agent })).body.dump()));
  onReady();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let body = nextBody(); body !== undefined && !stop(); body = nextBody()) {
        const t = performance.now();
        try {
          const res = await request(`${url}/call/upsert_batch`, { method: 'POST', body, headers: JSON_TYPE, dispatcher: agent });
          await res.body.dump();
          if (res.statusCode === 200) latencies.push(performance.now() - t);
          else failures.push(`${res.statusCode} after ${num(performance.now() - t)} ms`);
        } catch (err) {
          // e.g. ECONNRESET: a server whose loop was held past its headers timeout drops waiting requests.
          failures.push(`${(err as { code?: string }).code ?? String(err)} after ${num(performance.now() - t)} ms`);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  return { latencies: latencies.sort((a, b) => a - b), failures, seconds };
}
