// Service git operations and the git CLI commands over a real Memory in a real repository:
// trailers from parsed entries, memory diff, history by entry id, recall as of a commit (work tree
// and live index untouched), and git.not-a-repository outside git.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerGitCommands } from '../../../src/cli/commands/git.js';
import { checkpointMemory } from '../../../src/service/git-ops/checkpoint.js';
import { diffMemory } from '../../../src/service/git-ops/diff.js';
import { folderReach } from '../../../src/engine/load/git-context.js';
import { memoryHistory } from '../../../src/service/git-ops/history.js';
import { recallAsOf } from '../../../src/service/git-ops/as-of.js';
import { layoutPreset } from '../../../src/core/layout.js';
import { git, tempDir, write } from '../../support/fixtures.js';
import { expectCode } from '../../support/memory-error.js';
import { openWorkspace } from '../../support/memory.js';

const PINNED = { seconds: 1_796_040_000, timezoneOffset: 0 };
const AUTHOR = { name: 'Agent', email: 'agent@example.com' };

const STATE = (next: string) =>
  `# Current State\n\n> Last updated: 2026-11-30T12:00:00Z\n\n## Objective\nShip git features\n\n## Current Step\ntests\n\n## Key Decisions\n- isomorphic-git\n\n## Next Action\n${next}\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n`;

/** A repository whose workspace (default layout) is committed once. */
function makeWorkspace(sub = ''): { dir: string; root: string } {
  const dir = tempDir('gitmem-ops-');
  git(dir, 'init', '-q', '-b', 'main');
  const root = sub ? join(dir, sub) : dir;
  write(root, 'memory/MEMORY.md', '# Memory\n\n## Search\n\n- we use lunr for keyword search\n');
  write(root, 'memory/CURRENT_STATE.md', STATE('write tests'));
  write(root, 'memory/2026-11-30.md', '# 2026-11-30\n\n- 09:00 [decision] started the git layer\n');
  write(
    root,
    'memory/entries/pool.md',
    '---\nid: pool-size\ntype: learning\ntitle: Pool size\ntags: [db]\ncreated: 2026-11-30T09:00:00Z\n---\n\nThe connection pool holds 10 connections.\n',
  );
  write(dir, 'src/app.ts', 'x\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return { dir, root };
}

describe('folderReach', () => {
  it('enters only folders that can hold memory', () => {
    const def = folderReach(Object.values(layoutPreset('default').kinds).flat());
    expect(['memory', 'memory/entries', 'memory/entries/deep'].map(def)).toEqual([true, true, true]);
    expect(['src', 'node_modules', 'docs'].map(def)).toEqual([false, false, false]);
    const fusion = folderReach(Object.values(layoutPreset('fusion').kinds).flat());
    expect(['.fusion', '.fusion/memory', 'memory'].map(fusion)).toEqual([true, true, false]);
    const plain = folderReach(Object.values(layoutPreset('plain').kinds).flat());
    expect(plain('anything/at/all')).toBe(true);
    expect(folderReach(['a/b/MEMORY.md'])('a')).toBe(true);
    expect(folderReach(['a/b/MEMORY.md'])('a/b')).toBe(true);
    expect(folderReach(['a/b/MEMORY.md'])('a/b/c')).toBe(false);
  });
});

describe('service git operations', () => {
  it('checkpoints with kind and id trailers taken from the parsed entries', async () => {
    const { dir } = makeWorkspace();
    const mem = await openWorkspace(dir);
    write(
      dir,
      'memory/entries/lunr.md',
      '---\nid: use-lunr\ntype: decision\ntitle: Use lunr\n---\n\nWe picked lunr.\n',
    );
    write(
      dir,
      'memory/2026-11-30.md',
      '# 2026-11-30\n\n- 09:00 [decision] started the git layer\n- 10:00 wrote checkpoint\n',
    );
    const res = await checkpointMemory(mem.context, {
      git: { gitdir: join(dir, '.git'), workTree: dir },
      author: AUTHOR,
      timestamp: PINNED,
      reason: 'test',
    });
    expect(res.kind).toBe('committed');
    if (res.kind !== 'committed') return;
    expect(res.trailers).toEqual([
      { op: 'update', path: 'memory/2026-11-30.md', kind: 'daily' },
      { op: 'add', path: 'memory/entries/lunr.md', kind: 'entry', id: 'use-lunr' },
    ]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('diffs in memory terms: entry fields, body, CURRENT_STATE sections, daily lines', async () => {
    const { dir } = makeWorkspace();
    const where = { gitdir: join(dir, '.git'), workTree: dir };
    const mem = await openWorkspace(dir);
    write(
      dir,
      'memory/entries/pool.md',
      '---\nid: pool-size\ntype: decision\ntitle: Pool size\ntags: [db, postgres]\ncreated: 2026-11-30T09:00:00Z\n---\n\nThe connection pool holds 10 connections.\n',
    );
    write(dir, 'memory/CURRENT_STATE.md', STATE('wire the CLI'));
    write(dir, 'memory/2026-11-30.md', '# 2026-11-30\n\n- 09:00 [decision] started the git layer\n- 11:00 merged\n');
    write(dir, 'memory/entries/new.md', '---\nid: new-one\ntype: learning\n---\n\nNew.\n');
    const work = await diffMemory(mem.context, { git: where, from: 'HEAD' });
    expect(work.to).toBeNull();
    const by = (p: string) => work.changes.find((c) => c.path === p)!;
    expect(by('memory/entries/pool.md')).toMatchObject({
      change: 'changed',
      kind: 'entry',
      id: 'pool-size',
      bodyChanged: false,
    });
    expect(by('memory/entries/pool.md').fields.map((f) => f.key)).toEqual(['tags', 'type']);
    expect(by('memory/CURRENT_STATE.md').sections.map((s) => [s.name, s.after?.trim()])).toEqual([
      ['Next Action', 'wire the CLI'],
    ]);
    expect(by('memory/2026-11-30.md').linesAdded).toEqual([{ line: 4, text: '- 11:00 merged' }]);
    expect(by('memory/entries/new.md')).toMatchObject({ change: 'added', id: 'new-one' });

    await checkpointMemory(mem.context, { git: where, author: AUTHOR, timestamp: PINNED });
    const between = await diffMemory(mem.context, { git: where, from: 'HEAD~1', to: 'HEAD' });
    expect(between.summary).toEqual(work.summary);
    expect(between.to?.oid).toBe(git(dir, 'rev-parse', 'HEAD').trim());
  });

  it('shows history of one entry by id', async () => {
    const { dir } = makeWorkspace();
    const where = { gitdir: join(dir, '.git'), workTree: dir };
    const mem = await openWorkspace(dir);
    write(dir, 'memory/entries/pool.md', readFileSync(join(dir, 'memory/entries/pool.md'), 'utf8').replace('10', '20'));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- other change\n');
    await checkpointMemory(mem.context, { git: where, message: 'pool is 20', author: AUTHOR, timestamp: PINNED });
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- unrelated\n');
    await checkpointMemory(mem.context, {
      git: where,
      message: 'unrelated',
      author: AUTHOR,
      timestamp: { seconds: PINNED.seconds + 5, timezoneOffset: 0 },
    });
    const log = await memoryHistory(mem.context, { git: where, path: 'pool-size' });
    expect(log.map((e) => e.summary)).toEqual(['pool is 20', 'initial']);
    expect(log[0]!.memory).toEqual([{ op: 'update', path: 'memory/entries/pool.md', kind: 'entry', id: 'pool-size' }]);
  });

  it('recalls as of a commit without touching the work tree or the live index', async () => {
    const { dir } = makeWorkspace();
    const where = { gitdir: join(dir, '.git'), workTree: dir };
    const indexDir = join(tempDir('gitmem-idx-'), 'index');
    const mem = await openWorkspace(dir, { indexDir });
    write(dir, 'memory/MEMORY.md', '# Memory\n\n## Search\n\n- we moved to tantivy for keyword search\n');
    await checkpointMemory(mem.context, { git: where, author: AUTHOR, timestamp: PINNED });
    write(dir, 'memory/MEMORY.md', '# Memory\n\n## Search\n\n- uncommitted: meilisearch\n');
    const status = git(dir, 'status', '--porcelain');

    const old = await recallAsOf(mem.context, {
      git: where,
      rev: 'HEAD~1',
      query: 'lunr keyword search',
      options: { mode: 'keyword' },
    });
    expect(old.asOf.oid).toBe(git(dir, 'rev-parse', 'HEAD~1').trim());
    expect(old.results[0]).toMatchObject({ path: 'memory/MEMORY.md', startLine: 5 });
    expect(old.results[0]!.snippet).toContain('lunr');
    const now = await recallAsOf(mem.context, {
      git: where,
      rev: 'HEAD',
      query: 'tantivy',
      options: { mode: 'keyword' },
    });
    expect(now.results.map((r) => r.path)).toEqual(['memory/MEMORY.md']);
    expect(
      (await recallAsOf(mem.context, { git: where, rev: 'HEAD', query: 'meilisearch', options: { mode: 'keyword' } }))
        .results,
    ).toEqual([]);
    expect(
      (await recallAsOf(mem.context, { git: where, rev: 'HEAD~1', query: 'tantivy', options: { mode: 'keyword' } }))
        .results,
    ).toEqual([]);

    expect(readFileSync(join(dir, 'memory/MEMORY.md'), 'utf8')).toContain('meilisearch');
    expect(git(dir, 'status', '--porcelain')).toBe(status);
    expect(existsSync(indexDir) ? readdirSync(indexDir) : []).toEqual([]);
    await expectCode(recallAsOf(mem.context, { git: where, rev: 'nope', query: 'x' }), 'git.bad-revision');
  });

  it('works for a workspace in a subfolder of the work tree', async () => {
    const { dir, root } = makeWorkspace('tools/agent');
    const mem = await openWorkspace(root);
    write(root, 'memory/MEMORY.md', '# Memory\n\n- sub change\n');
    const res = await checkpointMemory(mem.context, {
      git: { gitdir: join(dir, '.git'), workTree: dir },
      author: AUTHOR,
      timestamp: PINNED,
    });
    expect(res.kind === 'committed' && res.changes.modified).toEqual(['memory/MEMORY.md']);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('tools/agent/memory/MEMORY.md');
    const old = await recallAsOf(mem.context, {
      git: { gitdir: join(dir, '.git'), workTree: dir },
      rev: 'HEAD~1',
      query: 'lunr',
      options: { mode: 'keyword' },
    });
    expect(old.results[0]?.path).toBe('memory/MEMORY.md');
  });

  it('answers git.not-a-repository outside git, with a hint', async () => {
    const root = tempDir('gitmem-nogit-');
    write(root, 'memory/MEMORY.md', '# Memory\n');
    const mem = await openWorkspace(root);
    const e = await expectCode(checkpointMemory(mem.context, { git: {} }), 'git.not-a-repository');
    expect(e.hint).toContain('git init');
    await expectCode(memoryHistory(mem.context, { git: {} }), 'git.not-a-repository');
    await expectCode(diffMemory(mem.context, { git: {}, from: 'HEAD' }), 'git.not-a-repository');
    await expectCode(recallAsOf(mem.context, { git: {}, rev: 'HEAD', query: 'x' }), 'git.not-a-repository');
  });
});

describe('git CLI commands (in-process)', () => {
  let written = '';
  afterEach(() => {
    vi.restoreAllMocks();
    written = '';
  });

  async function run(dir: string, args: string[], json = true): Promise<string> {
    const program = new Command().exitOverride().option('--json');
    registerGitCommands(program, {
      open: async () => ({ memory: await openWorkspace(dir), gitdir: join(dir, '.git'), workTree: dir }),
      json: () => json,
    });
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += String(chunk);
      return true;
    });
    await program.parseAsync(args, { from: 'user' });
    vi.restoreAllMocks();
    const text = written;
    written = '';
    return text;
  }

  it('checkpoint, log and diff print JSON', async () => {
    const { dir } = makeWorkspace();
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- cli change\n');
    const cp = JSON.parse(await run(dir, ['checkpoint', '-m', 'from the cli', '--reason', 'cli test']));
    expect(cp).toMatchObject({
      kind: 'committed',
      summary: 'from the cli',
      changes: { modified: ['memory/MEMORY.md'] },
    });
    expect(JSON.parse(await run(dir, ['checkpoint']))).toMatchObject({ kind: 'nothing-to-commit' });
    const log = JSON.parse(await run(dir, ['log', 'memory/MEMORY.md']));
    expect(log.commits.map((c: { summary: string }) => c.summary)).toEqual(['from the cli', 'initial']);
    expect(log.commits[0].reason).toBe('cli test');
    const diff = JSON.parse(await run(dir, ['diff', 'HEAD~1', 'HEAD']));
    expect(diff.changes.map((c: { path: string }) => c.path)).toEqual(['memory/MEMORY.md']);
    const human = await run(dir, ['diff', 'HEAD'], false);
    expect(human).toContain('No memory changes.');
    expect(await run(dir, ['checkpoint'], false)).toMatch(/^Nothing to commit/);
  });

  it('recall --as-of returns a recall response with asOf', async () => {
    const { dir } = makeWorkspace();
    const res = await recallAsOf((await openWorkspace(dir)).context, {
      git: { gitdir: join(dir, '.git'), workTree: dir },
      rev: 'HEAD',
      query: 'lunr',
      options: { mode: 'keyword' },
    });
    expect(res.asOf.rev).toBe('HEAD');
    expect(res.results[0]?.path).toBe('memory/MEMORY.md');
  });

  it('refuses a secret with the location and succeeds with --force', async () => {
    const { dir } = makeWorkspace();
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- deploy key AKIAIOSFODNN7EXAMPLQ\n');
    const e = await expectCode(run(dir, ['checkpoint']), 'git.secrets-found');
    expect(e.data.findings[0]).toMatchObject({ path: 'memory/MEMORY.md', line: 3 });
    expect(JSON.parse(await run(dir, ['checkpoint', '--force'])).kind).toBe('committed');
  });
});
