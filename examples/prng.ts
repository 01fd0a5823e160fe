// A small deterministic PRNG (mulberry32), so examples (and tests that generate data) get the same numbers every run.

/** Returns a generator of numbers in [0, 1) fixed by `seed`. */
export function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
