// Repository shapes at CI size (bench/reliability/shapes.ts, issue 42): the same write, checkpoint,
// sync and recall on a sparse cone, a partial clone, skip-worktree files, a submodule, a linked
// worktree, a symlinked memory folder, a shallow clone, detached HEAD, a rebase, merge and cherry-pick
// in progress, core.autocrlf, a case-only rename under core.ignorecase and a clean/smudge filter; a
// second full clone checks each. Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { printShapes, runShapes } from '../../bench/reliability/shapes.js';

describe('reliability: repository shapes (issue 42)', () => {
  it('lost 0, unexpected deletions 0, false successes 0, every refusal names its reason', async () => {
    const lines: string[] = [];
    const f = await runShapes({ seed: 42 });
    printShapes(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.failures).toEqual([]);
    expect(f.rows.length).toBe(15);
    expect(f.writes).toBe(f.rows.length);
    expect(f.lost).toBe(0);
    expect(f.deletions).toBe(0);
    expect(f.falseSuccesses).toBe(0);
    expect(f.unnamedRefusals).toBe(0);
    // The shapes git supports end with the write in the other clone; the refusals are the expected ones.
    const byName = new Map(f.rows.map((r) => [r.shape, r]));
    for (const s of [
      'full clone (baseline)',
      'sparse cone',
      'partial clone (blob:none)',
      'skip-worktree files',
      'submodule workspace',
      'linked worktree',
      'shallow clone',
      'core.autocrlf=true',
      'case-only rename, ignorecase',
      '.gitattributes filter',
    ])
      expect(byName.get(s)?.found, s).toBe(1);
    expect(byName.get('symlinked memory folder')?.refusal).toContain('git.linked-folder');
    expect(byName.get('detached HEAD')?.refusal).toContain('detached');
    for (const op of ['rebase', 'merge', 'cherry-pick'])
      expect(byName.get(`${op} in progress`)?.refusal).toContain('git.merge-in-progress');
  }, 300_000);
});
