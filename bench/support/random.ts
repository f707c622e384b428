// The seeded random sources of the benches and tests: every bench, reliability harness and test that
// needs repeatable pseudo-random input draws it from here, so a run can be repeated with its seed.

/** Deterministic PRNG (mulberry32) so a failing run can be repeated with its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit LCG, the embed bench's and the vector tests' source (kept as it was, so their inputs stay the same). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
