/**
 * Timers that never keep a process alive, on every runtime. Node.js, Bun and Deno return a timer object with
 * `unref()`; Cloudflare Workers (workerd) and Vercel Edge return a number, where calling `unref()` threw
 * (`this.timer.unref is not a function`) and the export dropped its batch.
 * @module
 */

/** A timer handle as `setTimeout` returns it on any runtime. */
export type TimerHandle = ReturnType<typeof setTimeout>;

/**
 * `setTimeout(fn, ms)` that does not hold the process open where the runtime has that notion (Node.js, Bun, Deno);
 * elsewhere a plain timer (a worker's event loop ends with its request, whatever timers are pending).
 *
 * @param fn - called once after `ms` milliseconds.
 * @param ms - delay in ms.
 * @returns the handle, for `clearTimeout`.
 */
export function unrefTimeout(fn: () => void, ms: number): TimerHandle {
  const timer = setTimeout(fn, ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** A promise resolved after `ms` milliseconds, whose timer does not hold the process open (see {@link unrefTimeout}). */
export function unrefDelay(ms: number): Promise<void> {
  return new Promise((resolve) => unrefTimeout(resolve, ms));
}

/** Runs `fn` on a later turn of the event loop: `setImmediate` where the runtime has it, else `setTimeout(fn, 0)` (Vercel Edge). */
export function runSoon(fn: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}
