// Drives a traced function the way a busy program would: a burst of calls per macrotask, then the event loop gets a turn.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { weft } from './weft.js';

/** Events waiting in weft's exporter above which a producer pauses (well under the default cap of 100,000). */
export const BACKLOG = 20_000;

/** True while weft's exporter has more than {@link BACKLOG} events waiting. */
export const weftBehind = (): boolean => weft.getExportStats().queueItems > BACKLOG;

/**
 * How long a producer waits at a time while the exporter is behind, ms. Each wake-up costs the process
 * about 70 µs of CPU on the 2-CPU bench machine (a bare `await setTimeout(1)` loop, 2026-11-23): waking
 * every 1 ms, the producer's own polling added about 5 µs per call to the all-in CPU figure of a run
 * that waits 10 s for the server. 5 ms keeps the queue well fed (20,000 events wait at the pause).
 */
const PAUSE_MS = 5;

/**
 * Calls `fn()` `n` times, `perTurn` calls per event-loop turn (so exporters can send between bursts).
 * While `busy()` says the exporter is behind, waits {@link PAUSE_MS} at a time instead of making more
 * calls (a producer that respects backpressure, so throughput is measured without dropping events).
 */
export async function callInBursts(fn: () => unknown, n: number, perTurn = 100, busy?: () => boolean): Promise<void> {
  for (let done = 0; done < n; ) {
    const end = Math.min(n, done + perTurn);
    for (; done < end; done++) fn();
    await nextTurn();
    while (busy?.()) await sleep(PAUSE_MS);
  }
}
