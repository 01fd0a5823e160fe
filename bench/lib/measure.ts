// Median ns per call of a function with mitata, flushing the tracer between timed batches so queues never overflow.
import { do_not_optimize, measure } from 'mitata';
import { QUICK } from './table.js';

/** Calls per timed mitata batch; the tracer is flushed (untimed) before each batch. */
const BATCH = 1024;
/** Least total time spent sampling one case, in ns (mitata's `min_cpu_time`). */
const MIN_TIME_NS = (Number(process.env.BENCH_MIN_MS) || (QUICK ? 150 : 500)) * 1e6;

/**
 * Median (p50) time of one `body()` call, in ns. `flush`, when given, runs untimed between timed
 * batches (mitata computes batch parameters before starting the clock), so the export work of one
 * batch is done before the next starts and every event is kept; what is timed is the inline cost.
 */
export async function nsPerCall(body: () => unknown, flush?: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const param = (): unknown => (flush && ++calls % BATCH === 0 ? flush() : undefined);
  const bench = (_param: unknown): unknown => {
    const result = body(); // a promise is returned so mitata awaits it
    do_not_optimize(result);
    return result;
  };
  // mitata's computed-parameter form (yield { 0: param, bench }) is missing from its typings.
  const gen = function* () {
    yield { 0: param, bench } as unknown as () => unknown;
  };
  const stats = await measure(gen, { min_cpu_time: MIN_TIME_NS, batch_samples: BATCH });
  if (flush) await flush();
  return stats.p50;
}
