// Linked worktrees (REAL git): a checkpoint in a linked worktree commits to its branch in the common
// git dir, with its own index and derived state; the main work tree reads that branch without a checkout.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

describe('linked worktrees', () => {
  it('checkpoint in a linked worktree commits to its branch in the common git dir, with its own index and derived state', () => {
    const base = tempDir('gitmem-wt-');
    const main = join(base, 'main');
    mkdirSync(join(main, 'memory'), { recursive: true });
    writeFileSync(join(main, 'memory', 'MEMORY.md'), '# Memory\n\n- first\n');
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'add', '-A');
    git(main, 'commit', '-qm', 'init');
    const wt = join(base, 'wt');
    git(main, 'worktree', 'add', '-q', wt, '-b', 'wtbranch');
    writeFileSync(join(wt, 'memory', 'MEMORY.md'), '# Memory\n\n- first\n- from the worktree\n');
    writeFileSync(join(wt, 'notes.txt'), 'user work, not memory\n');
    const mainHead = git(main, 'rev-parse', 'main').trim();
    const r = runCli(['checkpoint', '-m', 'wt memory', '--dir', wt, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const oid = r.json().oid as string;
    // git itself sees the commit on the worktree's branch; main is untouched; the worktree is clean for memory.
    expect(git(main, 'rev-parse', 'wtbranch').trim()).toBe(oid);
    expect(git(main, 'rev-parse', 'main').trim()).toBe(mainHead);
    expect(git(wt, 'status', '--porcelain')).toBe('?? notes.txt\n');
    expect(git(main, 'status', '--porcelain')).toBe('');
    expect(git(main, 'fsck', '--no-progress').trim()).toBe('');
    // log reads the history through the common dir; the derived index lives in the worktree's own gitdir.
    expect(runCli(['log', '--dir', wt, '--json']).json().commits[0].oid).toBe(oid);
    const hit = runCli(['recall', 'worktree', '--dir', wt, '--json', '--mode', 'keyword']).json();
    expect(hit.results[0].path).toBe('memory/MEMORY.md');
    expect(existsSync(join(main, '.git', 'worktrees', 'wt', 'gitmem'))).toBe(true);
    // The main work tree reads the worktree's branch without a checkout.
    const other = runCli(['recall', 'worktree', '--branch', 'wtbranch', '--dir', main, '--json']).json();
    expect(other.asOf.oid).toBe(oid);
    expect(other.results[0].snippet).toMatch(/from the worktree/);
    expect(runCli(['recall', 'worktree', '--dir', main, '--json', '--mode', 'keyword']).json().results).toEqual([]);
    rmSync(base, { recursive: true, force: true });
  });
});
