// Bad input R52 (docs/bad-inputs.md): a clone made before the remote's first push has an unborn
// branch. `gitmem sync` there failed with "push to origin failed: error: src refspec HEAD does not
// match any" (nothing local) or "refusing to merge unrelated histories" (local memory). Now the unborn
// branch adopts the remote's branch, as `git pull` does, and the sync goes on; a local file that differs
// from the remote's at the same path stops it with nothing changed. Real git: a bare remote, clones
// made while it was empty, the built CLI.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, noModelEnv, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ID = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** A bare remote and clones `a` and `b` of it made while it was empty; Ann (`a`) then syncs an entry. */
function emptyRemoteClones(): { base: string; remote: string; a: string; b: string; env: Record<string, string> } {
  requireBuiltCli();
  const base = tempDir();
  made.push(base);
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  git(base, 'clone', '-q', remote, 'a');
  git(base, 'clone', '-q', remote, 'b');
  const a = join(base, 'a');
  const b = join(base, 'b');
  const env = { ...noModelEnv(join(base, 'x')), ...ID };
  const cli = (dir: string, ...args: string[]) => runCli([...args, '--dir', dir], { env });
  expect(cli(a, 'init', '--merge-driver').code).toBe(0);
  expect(cli(a, 'remember', 'Deploys go out on Tuesdays zqtues').code).toBe(0);
  const s = cli(a, 'sync');
  expect(s.code, s.stderr).toBe(0);
  return { base, remote, a, b, env };
}

describe('gitmem sync in a clone made before the first push (R52)', { timeout: 240_000 }, () => {
  it("adopts the remote's branch, brings its memory in, and later syncs send local memory", () => {
    const { remote, b, env } = emptyRemoteClones();
    const r = runCli(['sync', '--json', '--dir', b], { env });
    expect(r.code, r.stderr).toBe(0);
    const rep = r.json();
    expect(rep.strategy).toBe('fast-forward');
    expect(rep.commitsIn.length).toBe(1);
    const head = git(b, 'rev-parse', 'HEAD').trim();
    expect(head).toBe(git(remote, 'rev-parse', 'refs/heads/main').trim());
    expect(git(b, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const recall = runCli(['recall', 'zqtues', '--json', '--mode', 'keyword', '--dir', b], { env });
    expect(recall.json().results.length).toBeGreaterThan(0);
    // Ben's own memory goes out on the next sync.
    expect(runCli(['remember', 'Ben lints with eslint zqlint', '--dir', b], { env }).code).toBe(0);
    const s = runCli(['sync', '--json', '--dir', b], { env });
    expect(s.code, s.stderr).toBe(0);
    expect(s.json().pushed).toBe(true);
    expect(git(remote, 'rev-parse', 'refs/heads/main').trim()).toBe(git(b, 'rev-parse', 'HEAD').trim());
    expect(git(remote, 'log', '--format=%s', 'main').split('\n').length).toBe(3);
  });

  it('keeps local memory of the unborn clone: new files are committed on top and pushed', () => {
    const { remote, b, env } = emptyRemoteClones();
    writeFileSync(join(b, 'notes-ben.txt'), 'not memory\n');
    expect(runCli(['remember', 'Ben prefers pnpm zqpnpm', '--dir', b], { env }).code).toBe(0);
    const r = runCli(['sync', '--json', '--dir', b], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().pushed).toBe(true);
    const tree = git(remote, 'ls-tree', '-r', '--name-only', 'main');
    expect(tree).toMatch(/memory\/entries\/.*pnpm/);
    expect(tree).toMatch(/memory\/entries\/.*tuesdays/);
    expect(tree).not.toContain('notes-ben.txt');
    expect(git(b, 'log', '--format=%s').trim().split('\n').length).toBe(2);
  });

  it("after gitmem init there: init's untouched files yield to the remote's, the rest is kept and sent", () => {
    const { remote, b, env } = emptyRemoteClones();
    expect(runCli(['init', '--dir', b], { env }).code).toBe(0);
    // init's CURRENT_STATE.md differs from Ann's by its time alone
    const state = join(b, 'memory', 'CURRENT_STATE.md');
    writeFileSync(
      state,
      readFileSync(state, 'utf8').replace(/^> Last updated: .*$/m, '> Last updated: 2020-01-01T00:00:00Z'),
    );
    expect(runCli(['remember', 'Ben prefers pnpm zqpnpm', '--dir', b], { env }).code).toBe(0);
    const r = runCli(['sync', '--json', '--dir', b], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().pushed).toBe(true);
    expect(readFileSync(join(b, 'memory', 'CURRENT_STATE.md'), 'utf8')).toBe(
      git(remote, 'show', 'main:memory/CURRENT_STATE.md'),
    );
    expect(git(remote, 'ls-tree', '-r', '--name-only', 'main')).toMatch(/memory\/entries\/.*pnpm/);
  });

  it('a local file that differs from the remote at the same path stops the sync, nothing changed', () => {
    const { b, env } = emptyRemoteClones();
    writeFileSync(join(b, 'gitmem.config.json'), '{"version":1,"layout":"default","model":{"enabled":false}}\n');
    const before = readFileSync(join(b, 'gitmem.config.json'), 'utf8');
    const r = runCli(['sync', '--json', '--dir', b], { env });
    expect(r.code).not.toBe(0);
    expect(r.json().error.message).toMatch(/no commit yet.*gitmem\.config\.json.*nothing changed/);
    expect(readFileSync(join(b, 'gitmem.config.json'), 'utf8')).toBe(before);
    expect(existsSync(join(b, 'memory'))).toBe(false);
    expect(git(b, 'branch', '--list')).toBe('');
  });
});
