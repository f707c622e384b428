// checkpoint's locks against REAL repositories: concurrent checkpoints are serialised (B23); a stale
// index.lock or a live gitmem process gives git.busy; canonical git reads while the locks are held; a
// dead process's lock is cleared, and so is a ref lock a killed gitmem left (its record says so; R93).
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fsp, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkpoint } from '../../../src/git/checkpoint.js';
import { GITMEM_LOCK, INDEX_LOCK, REF_LOCK_RECORD, withRepoLock } from '../../../src/git/lock.js';
import { openRepo } from '../../../src/git/repo.js';
import { makeRepo, opts } from '../../support/checkpoint-repo.js';
import { git, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('checkpoint locks', () => {
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
    // The holder lets go once the waiting checkpoint has read its lock (found it held by a live process).
    const readFile = fsp.readFile.bind(fsp) as (...a: unknown[]) => Promise<unknown>;
    vi.spyOn(fsp, 'readFile').mockImplementation(async (...a: unknown[]) => {
      const text = await readFile(...a);
      if (String(a[0]) === lock && existsSync(lock)) rmSync(lock);
      return text as never;
    });
    const pending = checkpoint(repo, opts({ lock: { waitMs: 5000 } }));
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
  /** The branch ref's lock path of `dir` and a pid that is gone (a process that ran and exited). */
  function refLockOf(dir: string): { lock: string; deadPid: number } {
    const ref = git(dir, 'symbolic-ref', 'HEAD').trim();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    return { lock: `${join(dir, '.git', ...ref.split('/'))}.lock`, deadPid };
  }

  it('takes over a ref lock a killed gitmem left (its record names a dead process and the lock)', async () => {
    const dir = makeRepo();
    const { lock, deadPid } = refLockOf(dir);
    const oid = 'a'.repeat(40);
    writeFileSync(lock, `${oid}\n`);
    writeFileSync(join(dir, '.git', REF_LOCK_RECORD), JSON.stringify({ pid: deadPid, lock, oid }));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- after a kill\n');
    const r = await checkpoint(openRepo({ workTree: dir }), opts({ message: 'after the kill' }));
    expect(r.kind).toBe('committed');
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toBe('after the kill');
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(dir, '.git', REF_LOCK_RECORD))).toBe(false);
    expect(git(dir, 'fsck', '--strict')).toBe('');
  });

  it('leaves a ref lock canonical git holds (no record, or another id) and gives git.busy', async () => {
    const dir = makeRepo();
    const { lock, deadPid } = refLockOf(dir);
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- blocked by git\n');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    writeFileSync(lock, `${'b'.repeat(40)}\n`);
    await expectCode(checkpoint(openRepo({ workTree: dir }), opts()), 'git.busy');
    // A record of a dead gitmem that names another id is not this lock's holder either.
    writeFileSync(join(dir, '.git', REF_LOCK_RECORD), JSON.stringify({ pid: deadPid, lock, oid: 'c'.repeat(40) }));
    await expectCode(checkpoint(openRepo({ workTree: dir }), opts()), 'git.busy');
    expect(existsSync(lock)).toBe(true);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
  });
});
