// checkpoint against REAL repositories in temp folders: it keeps the user's other work untouched,
// works with no identity (B22), on a detached HEAD, with no commits, in a subfolder workspace;
// refuses during a merge or a rebase; commits deletions; leaves out what .gitignore excludes (B24).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpoint } from '../../../src/git/checkpoint.js';
import { FALLBACK_AUTHOR } from '../../../src/git/identity.js';
import { GITMEM_LOCK, INDEX_LOCK } from '../../../src/git/lock.js';
import { openRepo } from '../../../src/git/repo.js';
import { NO_ENV, makeRepo, opts, scopeFor } from '../../support/checkpoint-repo.js';
import { git, tempDir, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';

const BASE_OID = '7b8486bc8a0e4c1acf619f09bd7a358b549b2ff4';

describe('checkpoint', () => {
  it("commits only memory paths; the user's staged and unstaged work stays exactly as it was", async () => {
    const dir = makeRepo();
    write(dir, 'src/app.ts', 'export const a = 2;\n');
    git(dir, 'add', 'src/app.ts'); // staged, not memory
    write(dir, 'src/new.ts', 'export {};\n');
    git(dir, 'add', 'src/new.ts'); // staged new file
    write(dir, 'README.md', '# project\n\nunstaged edit\n'); // unstaged
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- we use lunr for keyword search\n- postgres for storage\n');
    write(dir, 'memory/entries/pool.md', '---\nid: pool\ntype: learning\n---\nPool size 10.\n');
    const before = git(dir, 'status', '--porcelain');
    expect(before).toContain('M  src/app.ts');

    const repo = openRepo({ workTree: dir });
    const res = await checkpoint(
      repo,
      opts({
        message: 'memory: storage notes',
        describe: ({ path }) => ({
          kind: path.includes('entries/') ? 'entry' : 'long_term',
          ...(path.includes('pool') ? { id: 'pool' } : {}),
        }),
      }),
    );
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.changes).toEqual({ added: ['memory/entries/pool.md'], modified: ['memory/MEMORY.md'], deleted: [] });

    // The commit holds the memory files only.
    const stat = git(dir, 'show', '--stat', '--format=', 'HEAD');
    expect(stat).toContain('memory/MEMORY.md');
    expect(stat).toContain('memory/entries/pool.md');
    expect(stat).not.toContain('src/');
    expect(stat).not.toContain('README');
    // The user's staged files are still staged, the unstaged edit still unstaged, memory is clean.
    expect(git(dir, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M README.md',
      'A  src/new.ts',
      'M  src/app.ts',
    ]);
    expect(git(dir, 'diff', '--cached', '--name-only').trim().split('\n')).toEqual(['src/app.ts', 'src/new.ts']);
    expect(git(dir, 'show', ':src/app.ts')).toBe('export const a = 2;\n');
    expect(git(dir, 'fsck', '--strict')).toBe('');
    // Message: summary + trailers.
    const msg = git(dir, 'log', '-1', '--format=%B');
    expect(msg).toMatch(/^memory: storage notes\n\n/);
    expect(msg).toContain('Memory-Op: add\nMemory-Kind: entry\nMemory-Id: pool\nMemory-Path: memory/entries/pool.md');
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Memory-Op,valueonly)').trim().split('\n')).toEqual([
      'update',
      'add',
    ]);
    expect(git(dir, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Agent <agent@example.com>');
  });

  it('is reproducible: pinned author and time give an exact commit id', async () => {
    const dir = makeRepo();
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    expect(base).toBe(BASE_OID); // the fixture helper pins author, committer and dates
    write(dir, 'memory/entries/pool.md', '---\nid: pool\ntype: learning\n---\nPool size 10.\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts({ message: 'pin', reason: 'test' }));
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.parent).toBe(base);
    // Canonical git agrees with the ids isomorphic-git wrote.
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(res.oid);
    expect(git(dir, 'rev-parse', 'HEAD^{tree}').trim()).toBe(git(dir, 'write-tree').trim());
    expect(res.oid).toBe('275233df8f8dd2d2959caaf251ec6e827c5fc08e');
  });

  it('uses the fallback author when no git identity is configured anywhere (B22)', async () => {
    const dir = makeRepo();
    git(dir, 'config', '--unset', 'user.name');
    git(dir, 'config', '--unset', 'user.email');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- changed\n');
    const home = tempDir('gitmem-home-');
    const res = await checkpoint(openRepo({ workTree: dir }), {
      scope: scopeFor(),
      identity: { env: { HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, home },
    });
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.author.source).toBe('fallback');
    expect(git(dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).toBe(
      `${FALLBACK_AUTHOR.name} <${FALLBACK_AUTHOR.email}>|${FALLBACK_AUTHOR.name} <${FALLBACK_AUTHOR.email}>`,
    );
    expect(existsSync(join(dir, '.git', INDEX_LOCK))).toBe(false);
    expect(existsSync(join(dir, '.git', GITMEM_LOCK))).toBe(false);
  });

  it('reads the identity from the repo config, then the global config', async () => {
    const dir = makeRepo();
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- one\n');
    const repo = openRepo({ workTree: dir });
    const r1 = await checkpoint(repo, { scope: scopeFor(), identity: NO_ENV });
    expect(r1.kind === 'committed' && r1.author.source).toBe('repo-config');
    git(dir, 'config', '--unset', 'user.name');
    git(dir, 'config', '--unset', 'user.email');
    const home = tempDir('gitmem-home-');
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Global Person\n\temail = global@example.com\n');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- two\n');
    const r2 = await checkpoint(repo, { scope: scopeFor(), identity: { env: {}, home } });
    expect(r2.kind === 'committed' && r2.author.source).toBe('global-config');
    expect(git(dir, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Global Person <global@example.com>');
  });

  it('works on a detached HEAD and leaves the branch alone', async () => {
    const dir = makeRepo();
    const main = git(dir, 'rev-parse', 'main').trim();
    git(dir, 'checkout', '-q', '--detach');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- detached note\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts());
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.branch).toBeNull();
    expect(readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim()).toBe(res.oid);
    expect(git(dir, 'rev-parse', 'main').trim()).toBe(main);
    expect(git(dir, 'rev-parse', 'HEAD~1').trim()).toBe(main);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'fsck', '--strict')).toBe('');
  });

  it('works in a repository with no commits yet, keeping staged non-memory files staged', async () => {
    const dir = tempDir('gitmem-git-');
    git(dir, 'init', '-q', '-b', 'main');
    write(dir, 'src/app.ts', 'x\n');
    git(dir, 'add', 'src/app.ts');
    write(dir, 'memory/MEMORY.md', '# Memory\n');
    write(dir, 'memory/2026-11-30.md', '# 2026-11-30\n\n- started\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts());
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.parent).toBeNull();
    expect(res.branch).toBe('main');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n')).toEqual([
      'memory/2026-11-30.md',
      'memory/MEMORY.md',
    ]);
    expect(git(dir, 'status', '--porcelain')).toBe('A  src/app.ts\n');
    expect(git(dir, 'fsck', '--strict')).toBe('');
  });

  it('works when the workspace is a subfolder of the work tree', async () => {
    const dir = makeRepo();
    write(dir, 'docs/agent/memory/MEMORY.md', '# Sub memory\n');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- root memory is NOT this workspace\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts({ scope: scopeFor('docs/agent') }));
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.changes.added).toEqual(['memory/MEMORY.md']);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('docs/agent/memory/MEMORY.md');
    expect(git(dir, 'status', '--porcelain')).toBe(' M memory/MEMORY.md\n');
  });

  it('refuses while a merge is in progress', async () => {
    const dir = makeRepo();
    git(dir, 'checkout', '-q', '-b', 'other');
    write(dir, 'src/app.ts', 'export const a = 3;\n');
    git(dir, 'commit', '-q', '-am', 'other');
    git(dir, 'checkout', '-q', 'main');
    write(dir, 'src/app.ts', 'export const a = 4;\n');
    git(dir, 'commit', '-q', '-am', 'main');
    expect(() => git(dir, 'merge', 'other')).toThrow(); // conflict leaves MERGE_HEAD
    expect(existsSync(join(dir, '.git', 'MERGE_HEAD'))).toBe(true);
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- during merge\n');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const e = await expectCode(checkpoint(openRepo({ workTree: dir }), opts()), 'git.merge-in-progress');
    expect(e.data.operation).toBe('merge');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
  });

  it('refuses during a rebase (rebase-merge folder)', async () => {
    const dir = makeRepo();
    mkdirSync(join(dir, '.git', 'rebase-merge'));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- during rebase\n');
    const e = await expectCode(checkpoint(openRepo({ workTree: dir }), opts()), 'git.merge-in-progress');
    expect(e.data.operation).toBe('rebase');
  });

  it('returns nothing-to-commit as a normal result', async () => {
    const dir = makeRepo();
    write(dir, 'src/app.ts', 'changed but not memory\n');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const res = await checkpoint(openRepo({ workTree: dir }), opts());
    expect(res).toEqual({ kind: 'nothing-to-commit', head, ignored: [], binary: [], held: [] });
  });

  it('commits deletions and leaves no empty folders in the tree', async () => {
    const dir = makeRepo();
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'memory/entries/use-lunr.md'));
    const res = await checkpoint(openRepo({ workTree: dir }), opts());
    expect(res.kind === 'committed' && res.changes.deleted).toEqual(['memory/entries/use-lunr.md']);
    expect(git(dir, 'ls-tree', '-r', '-t', '--name-only', 'HEAD')).not.toContain('memory/entries');
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('does not commit new memory files that .gitignore excludes, but keeps tracked ones (B24)', async () => {
    const dir = makeRepo();
    write(dir, '.gitignore', 'memory/scratch/\nmemory/MEMORY.md\n');
    git(dir, 'add', '.gitignore');
    git(dir, 'commit', '-q', '-m', 'ignore');
    write(dir, 'memory/scratch/tmp.md', 'scratch\n');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- tracked though ignored\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts());
    expect(res.kind === 'committed' && res.changes).toEqual({ added: [], modified: ['memory/MEMORY.md'], deleted: [] });
  });
});
