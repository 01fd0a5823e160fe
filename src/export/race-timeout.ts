/**
 * raceTimeout(): wait for a promise that never rejects, or for a number of ms, whichever comes first, without keeping the process alive.
 * @module
 */

/** Resolves when `p` settles or `ms` pass (an unref'd timer); `ms` undefined waits for `p` alone. */
export function raceTimeout(p: Promise<unknown>, ms: number | undefined): Promise<void> {
  if (ms === undefined) return p.then(() => undefined, () => undefined);
  return new Promise((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    t.unref();
    const done = () => {
      clearTimeout(t);
      resolve();
    };
    void p.then(done, done);
  });
}
