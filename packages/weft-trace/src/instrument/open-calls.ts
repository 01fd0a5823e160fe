/**
 * The calls still running in this process, as an intrusive doubly linked list (no allocation per call), so that exit can end them as interrupted.
 * @module
 */

/** A running call as the registry holds it: its links, and how to end it when the process exits. */
export interface OpenCall {
  prevOpen: OpenCall | undefined;
  nextOpen: OpenCall | undefined;
  /** Ends the call with a `WeftInterrupted` exception naming `reason`; never throws. */
  interrupt(reason: string): void;
}

/** The most recently started call still open; older ones are reached through `prevOpen`. */
let newest: OpenCall | undefined;

/** Links a call that just started. */
export function addOpenCall(c: OpenCall): void {
  c.prevOpen = newest;
  c.nextOpen = undefined;
  if (newest) newest.nextOpen = c;
  newest = c;
}

/** Unlinks a call that ended; a call not linked (already removed) is left as it is. */
export function removeOpenCall(c: OpenCall): void {
  const prev = c.prevOpen;
  const next = c.nextOpen;
  if (next) next.prevOpen = prev;
  else if (newest === c) newest = prev;
  else return;
  if (prev) prev.nextOpen = next;
  c.prevOpen = undefined;
  c.nextOpen = undefined;
}

/**
 * Ends every open call as interrupted by `reason` (e.g. `beforeExit`, `SIGTERM`), newest first, so a
 * child ends before its parent. Returns how many were ended.
 */
export function interruptOpenCalls(reason: string): number {
  let n = 0;
  for (let c = newest; c !== undefined; c = newest) {
    removeOpenCall(c);
    c.interrupt(reason);
    n++;
  }
  return n;
}
