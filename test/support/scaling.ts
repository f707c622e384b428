// Growth checks instead of wall-clock targets: a function is called on inputs of size n and k·n,
// and the best-of-three time ratio must stay below what a super-linear algorithm would take. This
// catches quadratic blow-ups (a hang on big input) without failing on a slow or busy machine;
// absolute speed figures live in the benchmarks (npm run bench).

function bestOf(runs: number, fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * Time `run(make(n))` against `run(make(factor·n))`.
 * @returns the ratio of the best-of-three times (≈ factor for linear work, ≈ factor² for quadratic).
 */
export function growthRatio<T>(make: (n: number) => T, run: (input: T) => unknown, n: number, factor = 8): number {
  const small = make(n);
  const large = make(n * factor);
  run(small); // warm-up (JIT)
  const a = Math.max(bestOf(3, () => run(small)), 0.05);
  const b = bestOf(3, () => run(large));
  return b / a;
}
