// Memory history against REAL repositories: the memory log with its trailers, reading memory at a
// commit without touching the work tree, and recall --lineage naming the commit behind each result.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpoint } from '../../../src/git/checkpoint.js';
import { memoryLog, readTreeAt } from '../../../src/git/history.js';
import { openRepo, resolveRevision } from '../../../src/git/repo.js';
import { PINNED, makeRepo, opts, scopeFor } from '../../support/checkpoint-repo.js';
import { git, runCli, tempDir, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';

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
