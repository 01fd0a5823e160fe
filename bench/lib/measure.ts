// Median ns per call of a function with mitata, flushing the tracer between timed batches so queues never overflow.
import { do_not_optimize, measure } from 'mitata';
import { QUICK } from './table.js';

/** Least total time spent sampling one case, in ns (mitata's `min_cpu_time`). BENCH_MIN_MS overrides. */
const MIN_TIME_NS = (Number(process.env.BENCH_MIN_MS) || (QUICK ? 150 : 500)) * 1e6;
/**
 * Target length of one timed batch, in ns. Short batches are rarely cut by the OS scheduler, so the
 * median stays honest on a busy shared machine.
 */
const BATCH_NS = 200_000;
const MAX_BATCH = 1024;
/** mitata runs a batch as batch_samples / batch_unroll loops of batch_unroll calls, so batches are multiples of it. */
const UNROLL = 4;

/** Calls per timed batch: enough to fill {@link BATCH_NS}, from a trial of 64 calls after 64 warm-up calls. */
async function batchSize(body: () => unknown): Promise<number> {
  for (let i = 0; i < 64; i++) await body();
  const t0 = performance.now();
  for (let i = 0; i < 64; i++) await body();
  const perCallNs = ((performance.now() - t0) * 1e6) / 64;
  const calls = Math.min(MAX_BATCH, Math.floor(BATCH_NS / perCallNs));
  return Math.max(UNROLL, calls - (calls % UNROLL));
}

/**
 * Median (p50) wall time of one `body()` call, in ns. `flush`, when given, runs untimed between timed
 * batches (mitata computes batch parameters before starting the clock) about every 1,024 calls, so
 * queues stay small and every event is kept; what is timed is the inline cost.
 */
export async function nsPerCall(body: () => unknown, flush?: () => Promise<unknown>): Promise<number> {
  const batch = await batchSize(body);
  // Flushing about every 1,024 calls (always between batches) keeps a per-flush fixed cost out of the per-call figure.
  const flushEvery = Math.ceil(MAX_BATCH / batch) * batch;
  let calls = 0;
  const param = (): unknown => (flush && ++calls % flushEvery === 0 ? flush() : undefined);
  const bench = (_param: unknown): unknown => {
    const result = body(); // a promise is returned so mitata awaits it
    do_not_optimize(result);
    return result;
  };
  // mitata's computed-parameter form (yield { 0: param, bench }) is missing from its typings.
  const gen = function* () {
    yield { 0: param, bench } as unknown as () => unknown;
  };
  const stats = await measure(gen, { min_cpu_time: MIN_TIME_NS, batch_samples: batch, batch_unroll: UNROLL });
  if (flush) await flush();
  return stats.p50;
}
