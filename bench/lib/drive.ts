// Drives a traced function the way a busy program would: a burst of calls per macrotask, then the event loop gets a turn.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Calls `fn()` `n` times, `perTurn` calls per event-loop turn (so exporters can send between bursts). */
export async function callInBursts(fn: () => unknown, n: number, perTurn = 100): Promise<void> {
  for (let done = 0; done < n; ) {
    const end = Math.min(n, done + perTurn);
    for (; done < end; done++) fn();
    await nextTurn();
  }
}
