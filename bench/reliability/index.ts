// Reliability figures (issue 10, docs/DESIGN.md §10): crash consistency, concurrent writers, fuzzing, big and
// hostile files. `npm run reliability` runs the CI size; `npm run soak` ten times that.
// Bundled and started by scripts/reliability.mjs.
import { printConcurrent, runConcurrent, type ConcurrentFigures } from './concurrent.js';
import { printConvergence, runConvergence, type ConvergenceFigures } from './convergence.js';
import { printCrash, runCrash, type CrashFigures } from './crash.js';
import { printFuzz, runFuzz, type FuzzFigures } from './fuzz.js';
import { printHostile, runHostile, type HostileFigures } from './hostile.js';
import { printInterrupt, runInterrupt, type InterruptFigures } from './interrupt.js';
import { printHostileFs, runHostileFs, type HostileFsFigures } from './hostile-fs.js';
import { printShapes, runShapes, type ShapesFigures } from './shapes.js';

export type Harness = 'crash' | 'concurrent' | 'fuzz' | 'hostile' | 'convergence' | 'hostile-fs' | 'shapes';
export const HARNESSES: readonly Harness[] = [
  'crash',
  'concurrent',
  'fuzz',
  'hostile',
  'convergence',
  'hostile-fs',
  'shapes',
];

/** Sizes of one run; `soak` is ten times `ci` (convergence: 20 clones × 50 writes of every kind). */
export const SIZES = {
  ci: {
    kills: 8,
    writers: 3,
    rounds: 1,
    fuzzRuns: 300,
    manyFiles: 1000,
    depth: 50,
    underCapMb: 0.45,
    clones: 2,
    perKind: 1,
  },
  soak: {
    kills: 80,
    writers: 6,
    rounds: 5,
    fuzzRuns: 3000,
    manyFiles: 10_000,
    depth: 500,
    underCapMb: 4.5,
    clones: 20,
    perKind: 50,
  },
} as const;

export interface ReliabilityReport {
  crash?: CrashFigures;
  interrupt?: InterruptFigures;
  concurrent?: ConcurrentFigures;
  fuzz?: FuzzFigures;
  hostile?: HostileFigures;
  convergence?: ConvergenceFigures;
  hostileFs?: HostileFsFigures;
  shapes?: ShapesFigures;
  lost: number;
  corrupt: number;
  crashes: number;
  /** Runs killed at their time limit, and long-running commands that ignored SIGTERM. */
  hangs: number;
  failures: number;
}

export async function runReliability(
  options: {
    size?: 'ci' | 'soak';
    only?: readonly Harness[];
    seed?: number;
    verbose?: boolean;
    /** Convergence: clones and writes of each kind per clone, in place of the size's. */
    clones?: number;
    perKind?: number;
  } = {},
): Promise<ReliabilityReport> {
  const size = SIZES[options.size ?? 'ci'];
  const only = new Set(options.only?.length ? options.only : HARNESSES);
  const log = options.verbose
    ? (s: string) => console.log(s)
    : (s: string) => (s.includes('!') ? console.log(s) : undefined);
  const seed = options.seed;
  const rep: ReliabilityReport = { lost: 0, corrupt: 0, crashes: 0, hangs: 0, failures: 0 };
  console.log(
    `gitmem reliability — ${options.size ?? 'ci'} size, node ${process.version}, ${new Date().toISOString()}`,
  );
  if (only.has('crash')) {
    rep.crash = await runCrash({ kills: size.kills, ...(seed !== undefined ? { seed } : {}), log });
    printCrash(rep.crash);
    rep.lost += rep.crash.lost + rep.crash.recallMisses;
    rep.corrupt += rep.crash.corrupt;
    rep.failures += rep.crash.failures.length;
    // Part of crash consistency: SIGINT / SIGTERM / SIGKILL during `index` keep the finished embeddings.
    rep.interrupt = await runInterrupt({ ...(seed !== undefined ? { seed } : {}), log });
    printInterrupt(rep.interrupt);
    rep.failures += rep.interrupt.failures.length;
  }
  if (only.has('concurrent')) {
    rep.concurrent = await runConcurrent({
      writers: size.writers,
      rounds: size.rounds,
      ...(seed !== undefined ? { seed } : {}),
      log,
    });
    printConcurrent(rep.concurrent);
    rep.lost += rep.concurrent.lost + rep.concurrent.overwrites;
    rep.failures += rep.concurrent.failures.length;
  }
  if (only.has('fuzz')) {
    rep.fuzz = await runFuzz({ runs: size.fuzzRuns, ...(seed !== undefined ? { seed } : {}), log });
    printFuzz(rep.fuzz);
    rep.failures += rep.fuzz.failures;
  }
  if (only.has('hostile')) {
    rep.hostile = await runHostile({ manyFiles: size.manyFiles, depth: size.depth, underCapMb: size.underCapMb, log });
    printHostile(rep.hostile);
    rep.crashes += rep.hostile.crashes;
    rep.failures += rep.hostile.failures;
  }
  if (only.has('convergence')) {
    rep.convergence = await runConvergence({
      clones: options.clones ?? size.clones,
      perKind: options.perKind ?? size.perKind,
      ...(seed !== undefined ? { seed } : {}),
      log,
    });
    printConvergence(rep.convergence);
    rep.lost += rep.convergence.lost + rep.convergence.recallMisses;
    rep.corrupt += rep.convergence.duplicated + rep.convergence.invalid + rep.convergence.appendConflicts;
    rep.failures += rep.convergence.failures.length;
  }
  if (only.has('hostile-fs')) {
    rep.hostileFs = await runHostileFs({ log });
    printHostileFs(rep.hostileFs);
    rep.crashes += rep.hostileFs.crashes;
    rep.hangs += rep.hostileFs.hangs;
    rep.failures += rep.hostileFs.failures;
  }
  if (only.has('shapes')) {
    // Every shape once at both sizes: each is one scripted case, not a random draw.
    rep.shapes = await runShapes({ ...(seed !== undefined ? { seed } : {}), log });
    printShapes(rep.shapes);
    rep.lost += rep.shapes.lost + rep.shapes.deletions;
    rep.failures += rep.shapes.failures.length + rep.shapes.falseSuccesses + rep.shapes.unnamedRefusals;
  }
  console.log(
    `\nSummary: lost ${rep.lost}, corrupt ${rep.corrupt}, crashes ${rep.crashes}, hangs ${rep.hangs}, failures ${rep.failures}`,
  );
  return rep;
}
