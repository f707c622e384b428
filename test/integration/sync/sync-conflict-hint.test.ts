// Bad input G07 (docs/bad-inputs.md): a sync that stops on a conflict tells the user what actually
// settles it. Real git: a bare remote and two clones (test/support/sync-clones.ts). Ann and Ben edit
// the same MEMORY.md bullet two ways and each append to the same daily note. Without gitmem's merge
// rules both files conflict as plain text, but `gitmem doctor --fix` only settles the daily note:
// the error names MEMORY.md alone as the file to resolve by hand and says how to go on. With the rules
// the same edit names MEMORY.md and the by-hand steps, not doctor --fix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, write } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');
/** Both clones share "- Retries: 3", then edit it two ways and append to one daily note each. */
function conflicting(rules: boolean): { a: string; b: string } {
  const { a, b } = syncClones({ rules });
  write(a, 'memory/MEMORY.md', read(a, 'memory/MEMORY.md').replace('## Decisions\n', '## Decisions\n\n- Retries: 3\n'));
  ok(sync(a));
  ok(sync(b));
  write(a, 'memory/MEMORY.md', read(a, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 5'));
  write(b, 'memory/MEMORY.md', read(b, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 10'));
  ok(runCli(['append', 'ann was here', '--date', '2026-11-20', '--dir', a]));
  ok(runCli(['append', 'ben was here', '--date', '2026-11-20', '--dir', b]));
  ok(sync(a));
  return { a, b };
}

describe('sync conflict hints say what settles the conflict (G07)', { timeout: 240_000 }, () => {
  it('without the merge rules: only the file no rule can merge is named, with doctor --fix and the by-hand steps', () => {
    const { b } = conflicting(false);
    const head = git(b, 'rev-parse', 'HEAD');
    const r = sync(b);
    expect(r.code, r.stderr).toBe(5);
    const error = r.json().error;
    expect(error.code).toBe('git.conflict');
    expect(error.data.files).toEqual(['memory/MEMORY.md']);
    expect(error.data.textConflicts).toEqual(expect.arrayContaining(['memory/MEMORY.md', 'memory/2026-11-20.md']));
    expect(error.hint).toContain('gitmem doctor --fix');
    expect(error.hint).toContain('git merge origin/main');
    expect(error.hint).toContain('by hand');
    // Nothing changed but the checkpoint of Ben's memory: his files as he wrote them, no markers.
    expect(git(b, 'rev-parse', 'HEAD~1')).toBe(head);
    expect(git(b, 'log', '-1', '--format=%s')).toMatch(/^memory:/);
    // The hint says so (L2: it said "nothing was changed" after the checkpoint had committed).
    expect(error.hint).toMatch(
      new RegExp(
        `^nothing was merged; your uncommitted memory was committed first \\(checkpoint ${git(b, 'rev-parse', '--short=7', 'HEAD').trim()}\\)`,
      ),
    );
    expect(error.hint).not.toContain('nothing was changed');
    expect(read(b, 'memory/MEMORY.md')).toContain('- Retries: 10');
    expect(read(b, 'memory/MEMORY.md')).not.toMatch(/<<<<<<<|>>>>>>>/);
    expect(git(b, 'status', '--porcelain')).toBe('');

    // After doctor --fix the daily note merges by itself: MEMORY.md alone is left, and the hint no
    // longer sends the user to doctor --fix.
    ok(runCli(['doctor', '--fix', '--dir', b]));
    const m = sync(b);
    expect(m.code).toBe(5);
    expect(m.json().error.data.files).toEqual(['memory/MEMORY.md']);
    expect(m.json().error.hint).not.toContain('doctor --fix');
  });

  it('with the merge rules: the hint names the file and the by-hand steps, not doctor --fix', () => {
    const { b } = conflicting(true);
    const r = sync(b);
    expect(r.code, r.stderr).toBe(5);
    const error = r.json().error;
    expect(error.code).toBe('git.conflict');
    expect(error.data.files).toEqual(['memory/MEMORY.md']);
    expect(error.data.textConflicts).toBeUndefined();
    expect(error.hint).not.toContain('doctor --fix');
    expect(error.hint).toContain('git merge origin/main');
    expect(error.hint).toContain('gitmem sync again');
    expect(error.hint).toMatch(
      /^nothing was merged; your uncommitted memory was committed first \(checkpoint [0-9a-f]{7}\)/,
    );
    expect(read(b, 'memory/MEMORY.md')).not.toMatch(/<<<<<<<|>>>>>>>/);
    expect(git(b, 'status', '--porcelain')).toBe('');
  });
});
