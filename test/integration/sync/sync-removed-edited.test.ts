// Bad input G11 (docs/bad-inputs.md): one person removes an entry that another edits. The sync stops
// (nothing is lost), but the hint said "the same lines were edited two ways … resolve the conflict
// markers", and a modify/delete leaves no markers: the user found the file as one side wrote it and
// was not told the choice is to keep or drop it. Real git: a bare remote and two clones with gitmem's
// merge rules and driver (test/support/sync-clones.ts).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

/** Ann's entry shared with Ben; @returns the clones and the entry's path. */
function shared(): { a: string; b: string; file: string } {
  const c = syncClones();
  const { id } = ok(runCli(['remember', '--type', 'warning', 'Webhooks retry 3 times', '--json', '--dir', c.a])).json();
  ok(sync(c.a));
  ok(sync(c.b));
  return { a: c.a, b: c.b, file: `memory/entries/${id}.md` };
}
const edit = (dir: string, file: string) =>
  writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace('3 times', '5 times'));

describe('an entry removed in one clone and edited in the other (G11)', { timeout: 240_000 }, () => {
  it('changed here, removed in the remote: the hint says so and its steps settle the sync', () => {
    const { a, b, file } = shared();
    rmSync(join(b, file));
    ok(sync(b));
    edit(a, file);
    const head = git(a, 'rev-parse', 'HEAD');
    const r = sync(a);
    expect(r.code, r.stderr).toBe(5);
    const error = r.json().error;
    expect(error.code).toBe('git.conflict');
    expect(error.data.files).toEqual([file]);
    expect(error.data.removedOnOneSide).toEqual([file]);
    expect(error.hint).toContain('removed on one side and changed on the other');
    expect(error.hint).toContain(`${file} (changed here, removed in the remote; no markers)`);
    expect(error.hint).toContain('git add');
    expect(error.hint).toContain('git rm');
    expect(error.hint).not.toContain('conflict markers in');
    // Nothing changed but the checkpoint of Ann's edit.
    expect(git(a, 'rev-parse', 'HEAD~1')).toBe(head);
    expect(git(a, 'status', '--porcelain')).toBe('');

    // The hint's steps: merge, keep the edited entry, commit, sync.
    expect(spawnSync('git', ['merge', 'origin/main'], { cwd: a }).status).not.toBe(0);
    git(a, 'add', file);
    git(a, 'commit', '-qm', 'keep the edited entry');
    ok(sync(a));
    ok(sync(b));
    for (const dir of [a, b]) {
      expect(readFileSync(join(dir, file), 'utf8')).toContain('5 times');
      ok(runCli(['validate', '--dir', dir]));
    }
  });

  it('removed here, changed in the remote: the side is named the other way', () => {
    const { a, b, file } = shared();
    edit(a, file);
    ok(sync(a));
    rmSync(join(b, file));
    const r = sync(b);
    expect(r.code, r.stderr).toBe(5);
    const error = r.json().error;
    expect(error.data.removedOnOneSide).toEqual([file]);
    expect(error.hint).toContain(`${file} (removed here, changed in the remote; no markers)`);
    expect(existsSync(join(b, file))).toBe(false);
    expect(git(b, 'status', '--porcelain')).toBe('');
  });
});
