// Two-clone convergence at CI size (bench/reliability/convergence.ts): a bare remote and clones
// writing memory (every kind: remember, append, state set, complete-task, supersede, mv, forget) and
// syncing at the same time end with every acknowledged memory in every clone exactly once and in
// effect (moved, archived, superseding), validate clean, no conflict in an append-only file, and
// recall finding each write. Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { printConvergence, runConvergence } from '../../bench/reliability/convergence.js';
import { SIZES } from '../../bench/reliability/index.js';

describe('reliability: clones sharing memory through a git remote (issue 19)', () => {
  it('remember, append, state set, complete-task, supersede, mv, forget and sync in random order converge: lost 0, duplicated 0, validate clean', async () => {
    const lines: string[] = [];
    const f = await runConvergence({
      clones: SIZES.ci.clones,
      perKind: SIZES.ci.perKind,
      seed: 19,
      log: (s) => lines.push(s),
    });
    printConvergence(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.failures).toEqual([]);
    expect(f.acknowledged).toBeGreaterThan(0);
    expect(f.acknowledged).toBe(f.writes);
    expect(f.syncs).toBeGreaterThanOrEqual(SIZES.ci.clones);
    expect(f.lost).toBe(0);
    expect(f.duplicated).toBe(0);
    expect(f.recallMisses).toBe(0);
    expect(f.invalid).toBe(0);
    expect(f.conflicts).toBe(0);
    expect(f.appendConflicts).toBe(0);
    expect(f.everywhere).toBe(f.acknowledged);
    expect(f.writes).toBe(SIZES.ci.clones * SIZES.ci.perKind * 7);
  }, 400_000);
});
