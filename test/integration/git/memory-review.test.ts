// Memory review over a real repository: the files changed since HEAD with entry fields and writer
// (an MCP memory_remember is an agent's until anyone edits the file again), HEAD text for the diff
// editor, checkpointing only chosen files, and discarding (restore from HEAD, delete what HEAD lacks).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { createMcpTools } from '../../../src/mcp/tool-set.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { checkpointFiles, discardChanges, headText, reviewChanges } from '../../../src/service/review/memory-review.js';
import type { Memory } from '../../../src/service/memory.js';
import { git, tempDir, write } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const ENTRY =
  '---\nid: pool-size\ntype: learning\ntitle: Pool size\ntags: [db]\ncreated: 2026-11-30T09:00:00Z\n---\n\nThe connection pool holds 10 connections.\n';

async function repo(): Promise<{ dir: string; memory: Memory; where: { gitdir: string; workTree: string } }> {
  const dir = tempDir('gitmem-review-');
  const idx = tempDir('gitmem-review-idx-');
  git(dir, 'init', '-q', '-b', 'main');
  write(dir, 'memory/MEMORY.md', '# Memory\n\n- we use lunr\n');
  write(dir, 'memory/entries/pool.md', ENTRY);
  write(dir, 'src/app.ts', 'x\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  const memory = await openWorkspace(dir, { indexDir: idx });
  cleanup.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => rmSync(idx, { recursive: true, force: true }),
    () => memory.dispose(),
  );
  return { dir, memory, where: { gitdir: join(dir, '.git'), workTree: dir } };
}

describe('memory review', () => {
  it('lists changes since HEAD with entry fields; an MCP write is the agent’s until a later edit', async () => {
    const { dir, memory, where } = await repo();
    expect((await reviewChanges(memory.context, { git: where })).files).toEqual([]);
    const tools = createMcpTools({ memory, fs: createNodeFs(dir), git: where });
    const out = await tools.call('memory_remember', {
      text: 'Staging needs the VPN for the admin API.',
      type: 'warning',
      tags: ['staging'],
    });
    expect(out.ok).toBe(true);
    const path = (out as unknown as { data: { path: string } }).data.path;
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- we use lunr\n- and BM25\n');
    write(dir, 'src/app.ts', 'y\n'); // not memory: never listed
    let files = (await reviewChanges(memory.context, { git: where })).files;
    expect(files.map((f) => [f.path, f.change, f.writer])).toEqual([
      ['memory/MEMORY.md', 'modified', 'human'],
      [path, 'added', 'agent'],
    ]);
    expect(files[1]).toMatchObject({ kind: 'entry', type: 'warning', via: 'mcp' });
    expect(files[1]!.id).toBe(path.split('/').pop()!.replace(/\.md$/, ''));
    // A human edit after the agent's write: the record no longer matches, the change is the human's.
    writeFileSync(join(dir, path), `${readFileSync(join(dir, path), 'utf8')}\nChecked by hand.\n`);
    files = (await reviewChanges(memory.context, { git: where })).files;
    expect(files.find((f) => f.path === path)?.writer).toBe('human');
  });

  it('HEAD text for the diff editor; checkpoint commits only the chosen files', async () => {
    const { dir, memory, where } = await repo();
    write(dir, 'memory/entries/pool.md', ENTRY.replace('10 connections', '20 connections'));
    write(dir, 'memory/MEMORY.md', '# Memory\n\n- changed\n');
    expect(await headText(memory.context, { git: where, path: 'memory/entries/pool.md' })).toBe(ENTRY);
    expect(await headText(memory.context, { git: where, path: 'memory/entries/new.md' })).toBeUndefined();
    const res = await checkpointFiles(memory.context, { git: where, paths: ['memory/entries/pool.md'] });
    expect(res.kind).toBe('committed');
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('memory/entries/pool.md');
    expect(git(dir, 'log', '-1', '--format=%B')).toContain('Memory-Id: pool-size');
    expect(git(dir, 'status', '--porcelain').trim()).toBe('M memory/MEMORY.md');
    expect((await reviewChanges(memory.context, { git: where })).files.map((f) => f.path)).toEqual([
      'memory/MEMORY.md',
    ]);
  });

  it('discard restores modified and deleted files from HEAD and deletes added ones; only memory paths', async () => {
    const { dir, memory, where } = await repo();
    write(dir, 'memory/entries/pool.md', 'garbled\n');
    rmSync(join(dir, 'memory/MEMORY.md'));
    write(dir, 'memory/entries/extra.md', '---\nid: extra\ntype: learning\n---\n\nextra\n');
    const res = await discardChanges(memory.context, {
      git: where,
      paths: ['memory/entries/pool.md', 'memory/MEMORY.md', 'memory/entries/extra.md'],
    });
    expect(res).toEqual({
      restored: ['memory/entries/pool.md', 'memory/MEMORY.md'],
      removed: ['memory/entries/extra.md'],
    });
    expect(readFileSync(join(dir, 'memory/entries/pool.md'), 'utf8')).toBe(ENTRY);
    expect(existsSync(join(dir, 'memory/entries/extra.md'))).toBe(false);
    expect(git(dir, 'status', '--porcelain').trim()).toBe('');
    for (const bad of ['src/app.ts', '../outside.md']) {
      const err = await discardChanges(memory.context, { git: where, paths: [bad] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isMemoryError(err)).toBe(true);
    }
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('x\n');
  });

  it('outside a repository: a clear git.not-a-repository error', async () => {
    const dir = tempDir('gitmem-review-nogit-');
    const idx = tempDir('gitmem-review-nogit-idx-');
    write(dir, 'memory/MEMORY.md', '# Memory\n');
    const memory = await openWorkspace(dir, { indexDir: idx });
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => rmSync(idx, { recursive: true, force: true }),
      () => memory.dispose(),
    );
    const err = await reviewChanges(memory.context, { git: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMemoryError(err, 'git.not-a-repository')).toBe(true);
  });
});
