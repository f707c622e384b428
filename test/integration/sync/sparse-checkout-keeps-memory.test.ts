// Bad input R01 (docs/bad-inputs.md): memory git keeps as the index has it. REAL git, a bare remote and
// clones. A sparse checkout leaves the memory outside its cone out of the work tree (skip-worktree);
// a checkpoint compared HEAD with the work tree and committed those files as deleted, and sync pushed
// the deletion to everyone. Now checkpoint and sync commit only what `git status` shows: paths outside
// the cone, skip-worktree and assume-unchanged entries stay exactly as the index has them.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Sparse',
  GIT_AUTHOR_EMAIL: 'sparse@example.com',
  GIT_COMMITTER_NAME: 'Sparse',
  GIT_COMMITTER_EMAIL: 'sparse@example.com',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

/** A bare remote `r.git` holding memory/team/n1..n3.md and memory/entries/, pushed from `full`. */
function remoteWithTeamMemory(): { base: string; remote: string; full: string } {
  const base = tempDir('gitmem-sparse-');
  dirs.push(base);
  const remote = join(base, 'r.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const full = join(base, 'full');
  git(base, 'clone', '-q', remote, full);
  git(full, 'checkout', '-q', '-b', 'main');
  mkdirSync(join(full, 'memory/team'), { recursive: true });
  mkdirSync(join(full, 'memory/entries'), { recursive: true });
  writeFileSync(join(full, 'memory/MEMORY.md'), '# Memory\n\n- shared fact\n');
  writeFileSync(join(full, 'memory/entries/first.md'), '# First\n\nAn entry.\n');
  for (const n of [1, 2, 3])
    writeFileSync(join(full, `memory/team/n${n}.md`), `# Team note ${n}\n\nKept by the team.\n`);
  writeFileSync(join(full, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
  git(full, 'add', '-A');
  git(full, 'commit', '-qm', 'team memory');
  git(full, 'push', '-q', '-u', 'origin', 'main');
  return { base, remote, full };
}

const tracked = (dir: string, rev = 'HEAD') =>
  git(dir, 'ls-tree', '-r', '--name-only', rev).split('\n').filter(Boolean);

describe('memory outside what git status shows', { timeout: 120_000 }, () => {
  it('a sparse checkout commits and pushes only the new file, never the memory outside its cone', () => {
    const { base, full } = remoteWithTeamMemory();
    const sparse = join(base, 'sparse');
    git(base, 'clone', '-q', '--no-checkout', join(base, 'r.git'), sparse);
    git(sparse, 'sparse-checkout', 'set', '--cone', 'memory/entries');
    git(sparse, 'checkout', '-q', 'main');
    expect(existsSync(join(sparse, 'memory/team'))).toBe(false);
    expect(git(sparse, 'status', '--porcelain')).toBe('');
    writeFileSync(join(sparse, 'memory/entries/agent.md'), '# Agent\n\nWritten in the sparse clone.\n');
    const r = runCli(['sync', '--json', '--dir', sparse], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.checkpoint.files).toBe(1);
    // The pushed commit adds the one file; the team notes are still in the remote's tree.
    const files = tracked(sparse, 'origin/main');
    expect(files).toContain('memory/entries/agent.md');
    for (const n of [1, 2, 3]) expect(files).toContain(`memory/team/n${n}.md`);
    expect(git(sparse, 'show', '--name-status', '--format=', 'HEAD').trim()).toBe('A\tmemory/entries/agent.md');
    // The full clone's sync brings the new file and keeps the team's memory.
    const f = runCli(['sync', '--json', '--dir', full], { env: ENV });
    expect(f.code, f.stderr).toBe(0);
    expect(existsSync(join(full, 'memory/entries/agent.md'))).toBe(true);
    for (const n of [1, 2, 3]) expect(existsSync(join(full, `memory/team/n${n}.md`))).toBe(true);
  });

  it('skip-worktree and assume-unchanged files are neither deleted nor committed; a checkpoint names them', () => {
    const { full } = remoteWithTeamMemory();
    git(full, 'update-index', '--skip-worktree', 'memory/team/n1.md');
    git(full, 'update-index', '--assume-unchanged', 'memory/team/n2.md');
    rmSync(join(full, 'memory/team/n1.md'));
    writeFileSync(join(full, 'memory/team/n2.md'), '# Team note 2\n\nA local edit git does not show.\n');
    expect(git(full, 'status', '--porcelain')).toBe('');
    writeFileSync(join(full, 'memory/entries/second.md'), '# Second\n\nA real change.\n');
    const r = runCli(['checkpoint', '--json', '--dir', full], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.kind).toBe('committed');
    expect(res.changes).toEqual({ added: ['memory/entries/second.md'], modified: [], deleted: [] });
    expect(res.held).toEqual(['memory/team/n1.md', 'memory/team/n2.md']);
    expect(git(full, 'show', 'HEAD:memory/team/n2.md')).toContain('Kept by the team.');
    expect(tracked(full)).toContain('memory/team/n1.md');
    // The index still carries both flags.
    const flags = git(full, 'ls-files', '-v', 'memory/team').split('\n');
    expect(flags).toContain('S memory/team/n1.md');
    expect(flags).toContain('h memory/team/n2.md');
  });
});
