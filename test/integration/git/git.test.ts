// Git layer against REAL repositories in temp folders: checkpoint keeps the user's other work
// untouched, works with no identity (B22), detached HEAD, no commits, a subfolder workspace; refuses
// during a merge; serialises concurrent checkpoints (B23); CRLF-only rewrites (B20) and same-size
// rapid rewrites (B21); secrets; history and reading memory at a commit.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { checkpoint, type CheckpointOptions } from '../../../src/git/checkpoint.js';
import { FALLBACK_AUTHOR } from '../../../src/git/identity.js';
import { memoryLog, readTreeAt } from '../../../src/git/history.js';
import { GITMEM_LOCK, INDEX_LOCK, withRepoLock } from '../../../src/git/lock.js';
import { openRepo, resolveRevision, type MemoryScope } from '../../../src/git/repo.js';
import { memoryStatus } from '../../../src/git/status.js';
import { git, runCli, tempDir, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';

const PINNED = { seconds: 1_796_040_000, timezoneOffset: 0 }; // 2026-11-30T12:00:00Z
const AUTHOR = { name: 'Agent', email: 'agent@example.com' };
const NO_ENV = { env: {}, home: '/nonexistent-home' };
const BASE_OID = '7b8486bc8a0e4c1acf619f09bd7a358b549b2ff4';

function scopeFor(prefix = '', memoryDir = 'memory'): MemoryScope {
  return {
    prefix,
    accept: (p) => p.endsWith('.md') && (p === 'MEMORY.md' || p.startsWith(`${memoryDir}/`)),
    descend: (d) => d !== 'node_modules',
  };
}

/** A repository with one commit holding a README, a source file and a memory entry. */
function makeRepo(): string {
  const dir = tempDir('gitmem-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Repo User');
  git(dir, 'config', 'user.email', 'repo@example.com');
  write(dir, 'README.md', '# project\n');
  write(dir, 'src/app.ts', 'export const a = 1;\n');
  write(dir, 'memory/MEMORY.md', '# Memory\n\n- we use lunr for keyword search\n');
  write(dir, 'memory/entries/use-lunr.md', '---\nid: use-lunr\ntype: decision\n---\nWe picked lunr.\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

const opts = (extra: Partial<CheckpointOptions> = {}): CheckpointOptions => ({
  scope: scopeFor(),
  author: AUTHOR,
  timestamp: PINNED,
  identity: NO_ENV,
  ...extra,
});

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

  it('serialises concurrent checkpoints: every write lands, history is linear, fsck is clean (B23)', async () => {
    const dir = makeRepo();
    const repo = openRepo({ workTree: dir });
    const runs: Promise<unknown>[] = [];
    for (let i = 0; i < 8; i++) {
      write(dir, `memory/entries/e${i}.md`, `---\nid: e${i}\ntype: learning\n---\nnote ${i}\n`);
      runs.push(checkpoint(repo, opts({ message: `c${i}` })));
      await Promise.resolve();
    }
    const results = (await Promise.all(runs)) as Array<{ kind: string; summary?: string }>;
    expect(results[0]).toMatchObject({ kind: 'committed', summary: 'c0' }); // call order is kept
    const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD');
    for (let i = 0; i < 8; i++) expect(files).toContain(`memory/entries/e${i}.md`);
    const committed = results.filter((r) => r.kind === 'committed').length;
    expect(Number(git(dir, 'rev-list', '--count', 'HEAD').trim())).toBe(1 + committed);
    expect(git(dir, 'rev-list', '--merges', 'HEAD')).toBe('');
    expect(git(dir, 'fsck', '--strict')).toBe('');
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('gives git.busy on a stale index.lock and leaves the repository untouched', async () => {
    const dir = makeRepo();
    writeFileSync(join(dir, '.git', INDEX_LOCK), '');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- blocked\n');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    await expectCode(checkpoint(openRepo({ workTree: dir }), opts({ lock: { indexWaitMs: 50 } })), 'git.busy');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(existsSync(join(dir, '.git', GITMEM_LOCK))).toBe(false);
    expect(existsSync(join(dir, '.git', INDEX_LOCK))).toBe(true); // not ours to remove
  });

  it('waits for another live gitmem process, then gives git.busy; proceeds once the lock is released', async () => {
    const dir = makeRepo();
    const { hostname } = await import('node:os');
    const lock = join(dir, '.git', GITMEM_LOCK);
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: 'x' })); // a live process
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- waiting\n');
    const repo = openRepo({ workTree: dir });
    await expectCode(checkpoint(repo, opts({ lock: { waitMs: 50 } })), 'git.busy');
    const pending = checkpoint(repo, opts({ lock: { waitMs: 5000 } }));
    setTimeout(() => rmSync(lock), 100);
    expect((await pending).kind).toBe('committed');
  });

  it('lets canonical git read the repository while a checkpoint holds the locks', async () => {
    const dir = makeRepo();
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- concurrent reader\n');
    let during = '';
    await withRepoLock(join(dir, '.git'), async () => {
      during = git(dir, 'status', '--porcelain');
    });
    expect(during).toBe(' M memory/MEMORY.md\n');
    expect((await checkpoint(openRepo({ workTree: dir }), opts())).kind).toBe('committed');
    expect(git(dir, 'fsck', '--strict')).toBe('');
  });

  it('clears a gitmem lock left by a dead process', async () => {
    const dir = makeRepo();
    const { hostname } = await import('node:os');
    writeFileSync(join(dir, '.git', GITMEM_LOCK), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), at: 'x' }));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- after crash\n');
    const res = await checkpoint(openRepo({ workTree: dir }), opts({ lock: { waitMs: 200 } }));
    expect(res.kind).toBe('committed');
  });

  it('makes no commit for a CRLF-only rewrite under core.autocrlf=true (B20)', async () => {
    const dir = makeRepo();
    git(dir, 'config', 'core.autocrlf', 'true');
    write(dir, 'memory/DREAMS.md', '# Dreams\n\n- promote lunr note\n');
    git(dir, 'add', 'memory/DREAMS.md');
    git(dir, 'commit', '-q', '-m', 'dreams');
    write(dir, 'memory/DREAMS.md', '# Dreams\r\n\r\n- promote lunr note\r\n');
    const repo = openRepo({ workTree: dir });
    const st = await memoryStatus(repo, scopeFor());
    expect(st.modified).toEqual([]);
    const res = await checkpoint(repo, opts());
    expect(res.kind).toBe('nothing-to-commit');
  });

  it('always includes a same-size rapid rewrite (B21)', async () => {
    const dir = makeRepo();
    const repo = openRepo({ workTree: dir });
    write(dir, 'memory/CURRENT_STATE.md', 'step: A\n');
    await checkpoint(repo, opts());
    for (let i = 0; i < 20; i++) {
      const text = `step: ${String.fromCharCode(66 + (i % 20))}\n`; // same size every time
      write(dir, 'memory/CURRENT_STATE.md', text);
      const res = await checkpoint(repo, opts({ timestamp: { seconds: PINNED.seconds + i + 1, timezoneOffset: 0 } }));
      expect(res.kind).toBe('committed');
      expect(git(dir, 'show', 'HEAD:memory/CURRENT_STATE.md')).toBe(text);
    }
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses secrets with file:line unless forced', async () => {
    const dir = makeRepo();
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    write(dir, 'memory/entries/aws.md', '---\nid: aws\ntype: learning\n---\nkey AKIAIOSFODNN7EXAMPLX for the bucket\n');
    const repo = openRepo({ workTree: dir });
    const e = await expectCode(checkpoint(repo, opts()), 'git.secrets-found');
    expect(e.data.findings).toEqual([
      { path: 'memory/entries/aws.md', line: 5, column: 5, rule: 'aws-access-key', preview: 'AKIA…' },
    ]);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(existsSync(join(dir, '.git', INDEX_LOCK))).toBe(false);
    const res = await checkpoint(repo, opts({ force: true }));
    expect(res.kind === 'committed' && res.secrets.map((s) => `${s.path}:${s.line}`)).toEqual([
      'memory/entries/aws.md:5',
    ]);
  });

  it('scans only added lines: an old secret does not block an unrelated edit', async () => {
    const dir = makeRepo();
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n');
    const repo = openRepo({ workTree: dir });
    await checkpoint(repo, opts({ force: true }));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n- unrelated\n');
    const res = await checkpoint(repo, opts());
    expect(res.kind).toBe('committed');
  });

  it('answers git.not-a-repository outside a repository', () => {
    const dir = tempDir('gitmem-nogit-');
    try {
      openRepo({ workTree: dir });
      throw new Error('expected an error');
    } catch (e) {
      expect(isMemoryError(e, 'git.not-a-repository')).toBe(true);
    }
  });
});

describe('history', () => {
  it('lists memory commits with trailers, skipping commits that touched no memory', async () => {
    const dir = makeRepo();
    const repo = openRepo({ workTree: dir });
    write(dir, 'memory/entries/pool.md', '---\nid: pool\ntype: learning\n---\nPool size 10.\n');
    await checkpoint(
      repo,
      opts({ message: 'add pool', reason: 'task T-1', describe: () => ({ kind: 'entry', id: 'pool' }) }),
    );
    write(dir, 'src/app.ts', 'code only\n');
    git(dir, 'commit', '-q', '-am', 'code change');
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- edited\n');
    await checkpoint(
      repo,
      opts({ message: 'edit memory', timestamp: { seconds: PINNED.seconds + 60, timezoneOffset: -60 } }),
    );

    const log = await memoryLog(repo, scopeFor());
    expect(log.map((e) => e.summary)).toEqual(['edit memory', 'add pool', 'initial']);
    expect(log[0]!.author.date).toBe('2026-11-30T13:01:00+01:00');
    expect(log[1]!.memory).toEqual([{ op: 'add', path: 'memory/entries/pool.md', kind: 'entry', id: 'pool' }]);
    expect(log[1]!.reason).toBe('task T-1');
    expect(log[1]!.files).toEqual([{ path: 'memory/entries/pool.md', change: 'added' }]);

    const one = await memoryLog(repo, scopeFor(), { path: 'memory/entries/pool.md' });
    expect(one.map((e) => e.summary)).toEqual(['add pool']);
    expect((await memoryLog(repo, scopeFor(), { limit: 1 })).length).toBe(1);
  });

  it('reads memory at a commit without touching the work tree', async () => {
    const dir = makeRepo();
    const repo = openRepo({ workTree: dir });
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- we moved to tantivy\n');
    await checkpoint(repo, opts());
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- uncommitted edit\n');
    const status = git(dir, 'status', '--porcelain');
    const old = await readTreeAt(repo, scopeFor(), 'HEAD~1');
    expect(old.files.get('memory/MEMORY.md')).toBe('# Memory\n\n- we use lunr for keyword search\n');
    expect([...old.files.keys()]).toEqual(['memory/MEMORY.md', 'memory/entries/use-lunr.md']);
    const cur = await readTreeAt(repo, scopeFor(), 'main');
    expect(cur.files.get('memory/MEMORY.md')).toContain('tantivy');
    expect(readFileSync(join(dir, 'memory/MEMORY.md'), 'utf8')).toBe('# Memory\n\n- uncommitted edit\n');
    expect(git(dir, 'status', '--porcelain')).toBe(status);
    expect(await resolveRevision(repo, old.oid.slice(0, 8))).toBe(old.oid);
    await expectCode(readTreeAt(repo, scopeFor(), 'no-such-branch'), 'git.bad-revision');
    await expectCode(readTreeAt(repo, scopeFor(), 'HEAD~5'), 'git.bad-revision');
  });
});

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

describe('lineage', () => {
  it("recall --lineage names the commit that last changed each result's lines", () => {
    const ws = join(tempDir('gitmem-lineage-'), 'ws');
    mkdirSync(join(ws, 'memory'), { recursive: true });
    writeFileSync(
      join(ws, 'memory', 'MEMORY.md'),
      '# Memory\n\n## Storage\n\n- We use PostgreSQL for shipments.\n\n## Queues\n\n- Jobs run on BullMQ.\n',
    );
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'first');
    const first = git(ws, 'rev-parse', 'HEAD').trim();
    writeFileSync(
      join(ws, 'memory', 'MEMORY.md'),
      '# Memory\n\n## Storage\n\n- We use PostgreSQL for shipments.\n\n## Queues\n\n- Jobs run on BullMQ with Redis 7.\n',
    );
    git(ws, 'commit', '-qam', 'second');
    const second = git(ws, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(ws, 'memory', '2026-11-29.md'), '# 2026-11-29\n\n- Uncommitted: PostgreSQL vacuum ran long.\n');
    const r = runCli(['recall', 'postgresql', '--dir', ws, '--json', '--mode', 'keyword', '--lineage']);
    expect(r.code).toBe(0);
    const byPath = Object.fromEntries(r.json().results.map((x: any) => [x.path, x.lineage ?? null]));
    expect(byPath['memory/MEMORY.md']).toEqual({ commit: first, author: 'Test', date: '2026-11-29T12:00:00.000Z' });
    expect(byPath['memory/2026-11-29.md']).toBeNull();
    const q = runCli(['recall', 'bullmq', '--dir', ws, '--json', '--mode', 'keyword', '--lineage']).json();
    expect(q.results[0].lineage.commit).toBe(second);
  });
});
