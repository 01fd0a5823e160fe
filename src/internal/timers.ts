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
