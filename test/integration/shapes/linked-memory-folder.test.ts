// Bad input R02 (docs/bad-inputs.md): a memory folder that is a symbolic link to another folder inside
// the workspace. REAL git. Recall and writes work through the link, but git records a link, not the
// files behind it: a checkpoint committed every tracked memory/*.md as deleted and never the content
// behind the link, and sync would have emptied the remote. Now checkpoint and sync refuse with the
// fix (git.linked-folder), commit nothing, and doctor and validate say what the link does to git.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Linked',
  GIT_AUTHOR_EMAIL: 'linked@example.com',
  GIT_COMMITTER_NAME: 'Linked',
  GIT_COMMITTER_EMAIL: 'linked@example.com',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

function linkedWorkspace(): string {
  const base = tempDir('gitmem-linked-');
  dirs.push(base);
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'memory/entries'), { recursive: true });
  git(ws, 'init', '-q');
  writeFileSync(join(ws, 'memory/MEMORY.md'), '# Memory\n\n- a tracked fact\n');
  writeFileSync(join(ws, 'memory/entries/kept.md'), '# Kept\n\nA tracked entry.\n');
  writeFileSync(join(ws, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'base');
  git(base, 'init', '-q', '--bare', join(base, 'r.git'));
  git(ws, 'remote', 'add', 'origin', join(base, 'r.git'));
  renameSync(join(ws, 'memory'), join(ws, 'real-memory'));
  symlinkSync('real-memory', join(ws, 'memory'));
  return ws;
}

describe('a memory folder that is a symbolic link', { timeout: 120_000 }, () => {
  it('checkpoint refuses with the fix and commits nothing; the write through the link stays on disk', () => {
    const ws = linkedWorkspace();
    const head = git(ws, 'rev-parse', 'HEAD').trim();
    const w = runCli(['remember', '--json', '--dir', ws, 'Linked folder facts about the zebra crossing'], {
      env: ENV,
    });
    expect(w.code, w.stderr).toBe(0);
    const r = runCli(['checkpoint', '--json', '--dir', ws], { env: ENV });
    expect(r.code).toBe(1);
    const e = r.json().error;
    expect(e.code).toBe('git.linked-folder');
    expect(e.message).toContain('memory is a symbolic link to real-memory');
    expect(e.message).toContain('delete the 2 tracked memory files');
    expect(e.hint).toContain('rm memory && mv real-memory memory');
    expect(git(ws, 'rev-parse', 'HEAD').trim()).toBe(head);
    const s = runCli(['sync', '--json', '--dir', ws], { env: ENV });
    expect(s.json().error.code).toBe('git.linked-folder');
    expect(git(ws, 'rev-parse', 'HEAD').trim()).toBe(head);
    // The fix works: put the folder back and the write is committed.
    rmSync(join(ws, 'memory'));
    renameSync(join(ws, 'real-memory'), join(ws, 'memory'));
    const ok = runCli(['checkpoint', '--json', '--dir', ws], { env: ENV });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().changes.deleted).toEqual([]);
    expect(ok.json().changes.added).toHaveLength(1);
  });

  it('doctor and validate say what the link does to git', () => {
    const ws = linkedWorkspace();
    const d = runCli(['doctor', '--json', '--dir', ws], { env: ENV });
    expect(d.code, d.stderr).toBe(0);
    const [l] = d.json().linkedFolders;
    expect(l).toMatchObject({ path: 'memory', target: 'real-memory', tracked: 2 });
    expect(l.effect).toContain('as deleted');
    const text = runCli(['doctor', '--dir', ws], { env: ENV }).stdout;
    expect(text).toContain('memory is a symbolic link to real-memory');
    const v = runCli(['validate', '--json', '--dir', ws], { env: ENV });
    expect(v.code).toBe(1);
    const diag = v.json().diagnostics.find((x: any) => x.code === 'memory.git.linked-folder');
    expect(diag.path).toBe('memory');
    expect(diag.message).toContain('rm memory && mv real-memory memory');
  });

  it('a link to another memory folder (an alias) hides nothing and checkpoints as before', () => {
    const base = tempDir('gitmem-alias-');
    dirs.push(base);
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'memory/entries'), { recursive: true });
    git(ws, 'init', '-q');
    writeFileSync(join(ws, 'memory/entries/a.md'), '# A\n\nAn entry.\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'base');
    symlinkSync('entries', join(ws, 'memory/alias'));
    writeFileSync(join(ws, 'memory/entries/b.md'), '# B\n\nAnother entry.\n');
    const r = runCli(['checkpoint', '--json', '--dir', ws], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().changes.added).toEqual(['memory/entries/b.md']);
  });
  it('a link to an untracked folder in the work tree: the message names where the files lie', () => {
    const base = tempDir('gitmem-memstore-');
    dirs.push(base);
    const ws = join(base, 'ws');
    mkdirSync(join(ws, '.memstore/entries'), { recursive: true });
    git(ws, 'init', '-q');
    writeFileSync(join(ws, 'README.md'), '# Project\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'base');
    writeFileSync(join(ws, '.memstore/entries/c.md'), '# C\n\nAn entry behind the link.\n');
    symlinkSync('.memstore', join(ws, 'memory'));
    const r = runCli(['checkpoint', '--json', '--dir', ws], { env: ENV });
    expect(r.code).toBe(1);
    const e = r.json().error;
    expect(e.code).toBe('git.linked-folder');
    expect(e.message).toContain('the memory files behind it lie under .memstore/, which is not a memory folder');
    expect(e.message).not.toContain('never commit');
    expect(e.hint).toContain('rm memory && mv .memstore memory');
  });
});
