// Bad input R83 (docs/bad-inputs.md): a work tree whose repository is named by GIT_DIR and GIT_WORK_TREE
// (a bare repository kept for a home folder's dotfiles). REAL git. git itself worked there; gitmem
// looked only for a `.git` on the way up, so `gitmem checkpoint` failed with "not a git repository"
// and the hint to run `git init` — in a folder that is under git. Now the repository those variables
// name is the workspace's when the folder lies in GIT_WORK_TREE and no nearer `.git` holds it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git as plainGit, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';
import { spawnSync } from 'node:child_process';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

describe('GIT_DIR and GIT_WORK_TREE', { timeout: 120_000 }, () => {
  it('checkpoint commits into the repository they name, from the work tree and a sub-folder', () => {
    const base = tempDir('gitmem-git-dir-env-');
    dirs.push(base);
    const home = join(base, 'home');
    const bare = join(base, 'dotfiles.git');
    mkdirSync(join(home, 'notes'), { recursive: true });
    const env = {
      GIT_AUTHOR_NAME: 'Dot Files',
      GIT_AUTHOR_EMAIL: 'dotfiles@example.com',
      GIT_COMMITTER_NAME: 'Dot Files',
      GIT_COMMITTER_EMAIL: 'dotfiles@example.com',
      GIT_DIR: bare,
      GIT_WORK_TREE: home,
    };
    const git = (...args: string[]) => {
      const r = spawnSync('git', args, { cwd: home, env: { ...process.env, ...env }, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    plainGit(base, 'init', '-q', '--bare', '-b', 'main', bare);
    writeFileSync(join(home, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
    git('add', 'gitmem.config.json');
    git('commit', '-qm', 'dotfiles');
    const w = runCli(['remember', '--no-host', '--json', 'Completion is configured in zshrc'], { cwd: home, env });
    expect(w.code, w.stderr).toBe(0);
    const path = w.json().path as string;
    const c = runCli(['checkpoint', '--no-host', '--json'], { cwd: join(home, 'notes'), env });
    expect(c.code, c.stderr).toBe(0);
    expect(git('show', '--name-only', '--format=', 'HEAD').trim()).toBe(path);
    expect(git('status', '--porcelain', '--', 'memory')).toBe('');
  });
});
