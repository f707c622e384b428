// Growth checks instead of wall-clock targets: a function is called on inputs of size n and k·n,
// and the ratio of their costs must stay below what a super-linear algorithm would take. This
// catches quadratic blow-ups (a hang on big input) without failing on a slow or busy machine;
// absolute speed figures live in the benchmarks (npm run bench).
//
// Cost is this process's CPU time (user + system, process.cpuUsage), not wall time: on a machine
// shared with other processes, wall time counts every moment the scheduler gave the core to someone
// else, and that noise alone moved a linear chunker's ratio between 6 and 41. Small and large runs
// alternate, and each side keeps its cheapest run, so a burst of load or a GC pause lands on both
// sides or on neither.

/**
 * CPU milliseconds (user + system) that `fn` took in this process: a bound on it catches a blow-up
 * without counting the time the scheduler gave other processes (wall time on a loaded CI machine).
 */
export function cpuMs(fn: () => unknown): number {
  const t0 = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/**
 * Cost of `run(make(n))` against `run(make(factor·n))`. `n` is doubled first until the small run
 * takes at least 20 ms of CPU, so timer resolution does not dominate; then `rounds` small and large
 * runs alternate and each side is its cheapest run; past twice the linear ratio, `rounds` more.
 * @returns the cost ratio (≈ factor for linear work, ≈ factor² for quadratic).
 */
export function growthRatio<T>(
  make: (n: number) => T,
  run: (input: T) => unknown,
  n: number,
  factor = 8,
  rounds = 5,
): number {
  let size = n;
  let small = make(size);
  run(small); // warm-up (JIT)
  let a = cpuMs(() => run(small));
  for (let i = 0; i < 6 && a < 20; i++) {
    size *= 2;
    small = make(size);
    a = Math.min(
      cpuMs(() => run(small)),
      cpuMs(() => run(small)),
    );
  }
  const large = make(size * factor);
  run(large); // warm-up at the large size too (a first run may re-optimise)
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  /** `rounds` alternating small and large runs; the ratio of each side's cheapest run so far. */
  const measure = (): number => {
    for (let i = 0; i < rounds; i++) {
      bestSmall = Math.min(
        bestSmall,
        cpuMs(() => run(small)),
      );
      bestLarge = Math.min(
        bestLarge,
        cpuMs(() => run(large)),
      );
    }
    return bestLarge / Math.max(bestSmall, 0.05);
  };
  const ratio = measure();
  // Past twice the linear ratio, the measurement is taken once more (each side's cheapest over both):
  // in a full `npm test` on the 2-core machine, with the other vitest worker and V8's GC threads on
  // the same process clock, a linear parser measured 28 against a bound of 24 and 13.4 against 10
  // once, and 5-9 on every run alone. Quadratic work measures high both times.
  return ratio <= 2 * factor ? ratio : measure();
}

/** CPU milliseconds (user + system) this process spent while `fn` ran (an in-process server included). */
async function cpuMsAsync(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/**
 * {@link growthRatio} for work that is awaited and whose inputs are set up once (two workspaces of
 * n and factor·n files): `small` and `large` are each repeated `reps` times per run, `reps` doubled
 * until a small run takes at least 20 ms of CPU; runs alternate and each side keeps its cheapest.
 * @returns the cost ratio large / small.
 */
export async function growthRatioAsync(
  small: () => Promise<unknown>,
  large: () => Promise<unknown>,
  rounds = 5,
): Promise<number> {
  const times = (fn: () => Promise<unknown>, reps: number) =>
    cpuMsAsync(async () => {
      for (let i = 0; i < reps; i++) await fn();
    });
  await small(); // warm-up (JIT)
  await large();
  let reps = 1;
  for (let i = 0; i < 8 && (await times(small, reps)) < 20; i++) reps *= 2;
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let i = 0; i < rounds; i++) {
    bestSmall = Math.min(bestSmall, await times(small, reps));
    bestLarge = Math.min(bestLarge, await times(large, reps));
  }
  return bestLarge / Math.max(bestSmall, 0.05);
}
