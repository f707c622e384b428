// Bad input R80 (docs/bad-inputs.md): `gitmem mv` in a sparse checkout. REAL git: a repository whose
// memory/team/ links to an entry, cloned with `git sparse-checkout set --no-cone` leaving memory/team/
// out of the work tree. `mv` of the entry reported "0 link edits" and succeeded, and the next checkpoint
// committed a tree where memory/team/c.md's link pointed at nothing: the file was absent by sparsity,
// so its link was never seen. Now a move that would break a link in (or split a folder with) a memory
// file git keeps out of the work tree is refused, naming the file; nothing is moved.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Sparse Mover',
  GIT_AUTHOR_EMAIL: 'sparse-mover@example.com',
  GIT_COMMITTER_NAME: 'Sparse Mover',
  GIT_COMMITTER_EMAIL: 'sparse-mover@example.com',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

/** A clone of a repository with memory/entries/bundler.md and memory/team/c.md (linking to it), memory/team/ left out. */
function sparseClone(): string {
  const base = tempDir('gitmem-sparse-mv-');
  dirs.push(base);
  const full = join(base, 'full');
  git(base, 'init', '-q', '-b', 'main', full);
  mkdirSync(join(full, 'memory/team'), { recursive: true });
  mkdirSync(join(full, 'memory/entries'), { recursive: true });
  writeFileSync(join(full, 'memory/MEMORY.md'), '# Memory\n\n- shared fact\n');
  writeFileSync(join(full, 'memory/entries/bundler.md'), '# Bundler\n\nThe CLI is bundled with esbuild.\n');
  writeFileSync(join(full, 'memory/entries/other.md'), '# Other\n\nNothing links here.\n');
  writeFileSync(join(full, 'memory/team/c.md'), '# Team C\n\nSee [the bundler note](../entries/bundler.md).\n');
  writeFileSync(join(full, 'memory/team/d.md'), '# Team D\n\nA team note.\n');
  writeFileSync(join(full, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
  git(full, 'add', '-A');
  git(full, 'commit', '-qm', 'team memory');
  const sparse = join(base, 'sparse');
  git(base, 'clone', '-q', '--no-checkout', full, sparse);
  git(sparse, 'sparse-checkout', 'set', '--no-cone', '/*', '!/memory/team/');
  git(sparse, 'checkout', '-q', 'main');
  expect(existsSync(join(sparse, 'memory/team'))).toBe(false);
  return sparse;
}

describe('gitmem mv in a sparse checkout', { timeout: 120_000 }, () => {
  it('refuses a move that would break a link in a file outside the sparse set; nothing moved', () => {
    const dir = sparseClone();
    const r = runCli(['mv', '--no-host', '--dir', dir, 'memory/entries/bundler.md', 'memory/entries/esbuild.md'], {
      env: ENV,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('memory/team/c.md');
    expect(r.stderr).toMatch(/sparse/);
    expect(existsSync(join(dir, 'memory/entries/bundler.md'))).toBe(true);
    expect(existsSync(join(dir, 'memory/entries/esbuild.md'))).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses to move a folder part of which is outside the sparse set', () => {
    const base = sparseClone();
    git(base, 'sparse-checkout', 'set', '--no-cone', '/*', '!/memory/team/d.md');
    expect(existsSync(join(base, 'memory/team/c.md'))).toBe(true);
    const r = runCli(['mv', '--no-host', '--dir', base, 'memory/team', 'memory/crew'], { env: ENV });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('memory/team/d.md');
    expect(existsSync(join(base, 'memory/team/c.md'))).toBe(true);
    expect(git(base, 'status', '--porcelain')).toBe('');
  });

  it('a move no held file links to still works', () => {
    const dir = sparseClone();
    const r = runCli(['mv', '--no-host', '--dir', dir, 'memory/entries/other.md', 'memory/entries/misc.md'], {
      env: ENV,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'memory/entries/misc.md'))).toBe(true);
  });
});
