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
 * Time `run(make(n))` against `run(make(factor·n))`. `n` is doubled first until the small run takes
 * at least 20 ms, so timer resolution and a single pause do not dominate; each side is the best of
 * five runs, so a busy machine's preemptions mostly fall out.
 * @returns the time ratio (≈ factor for linear work, ≈ factor² for quadratic).
 */
export function growthRatio<T>(make: (n: number) => T, run: (input: T) => unknown, n: number, factor = 8): number {
  let size = n;
  let small = make(size);
  run(small); // warm-up (JIT)
  let a = bestOf(3, () => run(small));
  for (let i = 0; i < 6 && a < 20; i++) {
    size *= 2;
    small = make(size);
    a = bestOf(3, () => run(small));
  }
  a = Math.max(
    bestOf(5, () => run(small)),
    0.05,
  );
  const large = make(size * factor);
  const b = bestOf(5, () => run(large));
  return b / a;
}
