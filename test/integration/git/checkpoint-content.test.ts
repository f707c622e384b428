// What checkpoint commits, against REAL repositories: nothing for a CRLF-only rewrite (B20), every
// same-size rapid rewrite (B21), no secrets unless forced (only added lines are scanned), and a clear
// error outside a repository.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { checkpoint } from '../../../src/git/checkpoint.js';
import { INDEX_LOCK } from '../../../src/git/lock.js';
import { openRepo } from '../../../src/git/repo.js';
import { memoryStatus } from '../../../src/git/status.js';
import { PINNED, makeRepo, opts, scopeFor } from '../../support/checkpoint-repo.js';
import { git, tempDir, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';

describe('checkpoint content', () => {
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
